import { describe, expect, it } from 'vitest';
import { Foreground } from './foreground';

describe('Foreground', () => {
  it('lets background work wait while foreground work is under way, but never longer than its limit', async () => {
    const fg = new Foreground();
    let release = () => {};
    const held = fg.run(
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
    );
    const events: string[] = [];
    const background = fg.turn(1_000).then(() => events.push('background'));
    setTimeout(() => {
      events.push('foreground done');
      release();
    }, 30);
    await Promise.all([held, background]);
    expect(events).toEqual(['foreground done', 'background']);

    // A foreground job that never ends holds background work back only for the limit.
    void fg.run(() => new Promise<void>(() => {}));
    const started = Date.now();
    await fg.turn(40);
    expect(Date.now() - started).toBeGreaterThanOrEqual(38);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
