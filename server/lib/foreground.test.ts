import { describe, expect, it } from 'vitest';
import { Foreground } from './foreground';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Signed webhooks answered at once, one after another with `between` in between; resolves the stop. */
function webhooks(fg: Foreground, between: () => Promise<unknown>): () => Promise<void> {
  let streaming = true;
  const stream = (async () => {
    while (streaming) {
      await fg.run(async () => fg.arrived());
      await between();
    }
  })();
  return () => {
    streaming = false;
    return stream;
  };
}

describe('Foreground', () => {
  it('lets background work wait while foreground work is under way, and go as soon as it ends', async () => {
    const fg = new Foreground(0.01);
    let release = () => {};
    const held = fg.run(
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
    );
    const events: string[] = [];
    // The first background statement goes; taking 20 ms at a 1 % share, it is followed by ~2 s of pause.
    await fg.background(() => sleep(20));
    const started = Date.now();
    const background = Promise.all([fg.background(async () => {}), fg.background(async () => {})]).then(() =>
      events.push('background'),
    );
    setTimeout(() => {
      events.push('foreground done');
      release();
    }, 30);
    await Promise.all([held, background]);
    expect(events).toEqual(['foreground done', 'background']);
    // Released by the end of the foreground work, not by the pause.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('keeps background statements to their share of the time while foreground work never ends', async () => {
    const fg = new Foreground(0.25);
    void fg.run(() => new Promise<void>(() => {}));
    const started = Date.now();
    const spans: Array<[number, number]> = [];
    await Promise.all(
      Array.from({ length: 4 }, () =>
        fg.background(async () => {
          const from = Date.now() - started;
          await sleep(20);
          spans.push([from, Date.now() - started]);
        }),
      ),
    );
    spans.sort((a, b) => a[0] - b[0]);
    // One at a time, each 20 ms statement followed by at least 60 ms of pause (25 % share); never stopped.
    for (let i = 1; i < spans.length; i++) expect(spans[i][0] - spans[i - 1][1]).toBeGreaterThanOrEqual(55);
    expect(spans.at(-1)?.[1]).toBeLessThan(2_000);
  });

  it('takes a burst of short foreground works (webhooks) as one, and lets go when it stops', async () => {
    const fg = new Foreground(0.25, 10);
    // Each webhook is answered within a turn; the next one is already waiting (thousands a second).
    const stop = webhooks(fg, () => new Promise((r) => setImmediate(r)));
    // The burst is under way (its first webhooks alone are no burst yet).
    await sleep(5);
    const started = Date.now();
    const spans: Array<[number, number]> = [];
    const statement = async () => {
      const from = Date.now() - started;
      await sleep(20);
      spans.push([from, Date.now() - started]);
    };
    await Promise.all(Array.from({ length: 3 }, () => fg.background(statement)));
    await stop();
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i][0] - spans[i - 1][1]).toBeGreaterThanOrEqual(55);

    // The burst is over: once the linger is over, statements follow one another at once.
    await sleep(15);
    const after = Date.now();
    for (let i = 0; i < 5; i++) await fg.background(() => sleep(5));
    expect(Date.now() - after).toBeLessThan(300);
  });

  it('does not hold background statements back between the webhooks of a steady stream', async () => {
    const fg = new Foreground(0.01, 10);
    // One webhook every 5 ms (200 a second), each answered at once: no burst.
    const stop = webhooks(fg, () => sleep(5));
    const started = Date.now();
    // At a 1 % share, a burst would put about 2 s between these 20 ms statements.
    for (let i = 0; i < 5; i++) await fg.background(() => sleep(20));
    await stop();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('makes no burst of foreground works that prove nothing (a flood of forged webhooks)', async () => {
    const fg = new Foreground(0.01, 10);
    // Requests answered at once, thousands a second, none of them a delivery that arrived.
    let flooding = true;
    const flood = (async () => {
      while (flooding) {
        await fg.run(async () => {});
        await new Promise((r) => setImmediate(r));
      }
    })();
    await sleep(5);
    const started = Date.now();
    // Held as a burst, these 20 ms statements would be about 2 s apart at a 1 % share.
    for (let i = 0; i < 5; i++) await fg.background(() => sleep(20));
    flooding = false;
    await flood;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('costs nothing without foreground work: background goes after pending I/O only', async () => {
    const fg = new Foreground(0.01);
    const started = Date.now();
    for (let i = 0; i < 20; i++) await fg.background(() => sleep(5));
    // 20 statements of 5 ms with no pause between them.
    expect(Date.now() - started).toBeLessThan(600);
  });
});
