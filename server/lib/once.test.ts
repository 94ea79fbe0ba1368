import { describe, expect, it } from 'vitest';
import { once } from './once';

describe('once', () => {
  it('makes the value on the first call only', () => {
    let calls = 0;
    const value = once(() => ({ n: ++calls }));
    expect(calls).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(calls).toBe(1);
  });

  it('keeps an undefined value too', () => {
    let calls = 0;
    const value = once(() => {
      calls++;
      return undefined;
    });
    value();
    value();
    expect(calls).toBe(1);
  });
});
