import { describe, expect, it } from 'vitest';
import { AppState, stateSlot } from './app-state';

describe('AppState', () => {
  const counter = stateSlot('counter', () => ({ n: 0 }));

  it('builds a part once per app, on first use', () => {
    const state = new AppState();
    state.of(counter).n++;
    expect(state.of(counter).n).toBe(1);
  });

  it('two apps share nothing', () => {
    const one = new AppState();
    const two = new AppState();
    one.of(counter).n = 5;
    expect(two.of(counter).n).toBe(0);
  });

  it('a part may reach the other parts of its own app', () => {
    const seen = stateSlot('seen', (state) => ({ base: state.of(counter) }));
    const state = new AppState();
    state.of(counter).n = 3;
    expect(state.of(seen).base.n).toBe(3);
  });
});
