import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8InTurns, JSON_LIMITS, JsonRefused, parseJsonInTurns, Turns } from './backup-json';

/** What JSON.parse answers for a text: its value, or that it throws. */
function reference(text: string): { value: unknown } | { error: true } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: true };
  }
}

async function inTurns(text: string, pieceChars: number): Promise<{ value: unknown } | { error: true }> {
  try {
    return { value: await parseJsonInTurns(text, new Turns(), pieceChars) };
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return { error: true };
  }
}

/** Equal as JSON.parse builds them: the same own keys in the same order, prototype included. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k, i) =>
        k === kb[i] && sameValue((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k]),
    )
  );
}

async function agrees(text: string, pieceChars: number) {
  const expected = reference(text);
  const got = await inTurns(text, pieceChars);
  if ('error' in expected) expect(got).toEqual(expected);
  else expect('value' in got && sameValue(got.value, expected.value), text.slice(0, 200)).toBe(true);
}

describe('parseJsonInTurns', () => {
  it('builds what JSON.parse builds, whatever the size of the pieces', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 1, max: 64 }), async (value, piece) => {
        const text = JSON.stringify(value, null, piece % 3 === 0 ? 1 : undefined);
        await agrees(text, piece);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses what JSON.parse refuses: broken text, whole or cut', async () => {
    const texts = fc.oneof(
      fc.string(),
      fc.tuple(fc.jsonValue({ maxDepth: 4 }), fc.nat(), fc.string({ maxLength: 3 })).map(([v, at, junk]) => {
        const t = JSON.stringify(v);
        const i = at % (t.length + 1);
        return t.slice(0, i) + junk + t.slice(i);
      }),
    );
    await fc.assert(
      fc.asyncProperty(texts, fc.integer({ min: 1, max: 32 }), (text, piece) => agrees(text, piece)),
      { numRuns: 800 },
    );
  });

  it('agrees on the hard cases', async () => {
    const cases = [
      '',
      ' ',
      '[]',
      '{}',
      '[1,]',
      '[,1]',
      '{"a":1,}',
      '{"a" 1}',
      '{"a":}',
      '{1:2}',
      '[1 2]',
      '[true false]',
      '[1]]',
      '[[1]',
      '[}',
      '{]',
      '{"a":[1,2}',
      '"\\u0000"',
      '"a\nb"',
      '["\\ud800"]',
      '{"__proto__":{"x":1},"a":[{"__proto__":[]}]}',
      '{"a":1,"b":2,"a":3}',
      ' [ 1 , { "b" : [ null , -0 , 1e400 , "\\"" ] } ] ',
      '[1] x',
      '\u00a0[1]',
      '[-]',
      '[01]',
      '{"a":1}{"b":2}',
    ];
    for (const text of cases) for (const piece of [1, 2, 4, 1024]) await agrees(text, piece);
  });

  it('refuses nesting, items and keys beyond the bounds before building anything', async () => {
    const tooDeep = `${'['.repeat(JSON_LIMITS.depth + 1)}${']'.repeat(JSON_LIMITS.depth + 1)}`;
    await expect(parseJsonInTurns(tooDeep, new Turns())).rejects.toBeInstanceOf(JsonRefused);
    const manyKeys = `{${Array.from({ length: JSON_LIMITS.keys + 1 }, (_, i) => `"k${i}":1`).join(',')}}`;
    await expect(parseJsonInTurns(manyKeys, new Turns())).rejects.toBeInstanceOf(JsonRefused);
    const deepEnough = `${'['.repeat(JSON_LIMITS.depth)}${']'.repeat(JSON_LIMITS.depth)}`;
    await expect(parseJsonInTurns(deepEnough, new Turns())).resolves.toBeDefined();
  });

  it('parses 20 MB in turns: timers run while it parses, and it pauses at least once a piece', async () => {
    const line = (i: number) => ({
      recipient: `55219${10_000_000 + i}`,
      status: 'sent',
      sentAt: '2026-03-10T15:00:00.000Z',
    });
    const text = JSON.stringify({
      format: 'x',
      campaigns: [{ name: 'a', recipients: Array.from({ length: 250_000 }, (_, i) => line(i)) }],
    });
    expect(text.length).toBeGreaterThan(20_000_000);
    let ticks = 0;
    const timer = setInterval(() => {
      ticks++;
    }, 1);
    const value = (await parseJsonInTurns(text, new Turns())) as { campaigns: Array<{ recipients: unknown[] }> };
    clearInterval(timer);
    expect(value.campaigns[0].recipients).toHaveLength(250_000);
    expect(value.campaigns[0].recipients[123_456]).toEqual(line(123_456));
    // JSON.parse of the whole text holds the thread and no timer runs meanwhile (at most one tick);
    // in turns, timers run between them. How long a turn lasts is measured by `npm run bench`.
    expect(ticks).toBeGreaterThanOrEqual(5);

    // Whatever the machine's speed, the parser offers a pause at least once per piece of text:
    // a turn that is always over counts every offer.
    class Counted extends Turns {
      pauses = 0;
      constructor() {
        super(0);
      }
      override async pause(): Promise<void> {
        this.pauses++;
        await super.pause();
      }
    }
    const counted = new Counted();
    await parseJsonInTurns(text, counted, 128 * 1024);
    expect(counted.pauses).toBeGreaterThanOrEqual(Math.floor(text.length / (128 * 1024)));
  });
});

describe('decodeUtf8InTurns', () => {
  it('decodes as one decode would, byte-order mark dropped, a character cut between pieces kept whole', async () => {
    const text = `\ufeff${'ação 🎉 '.repeat(300_000)}`;
    const bytes = Buffer.from(text);
    expect(await decodeUtf8InTurns(bytes, new Turns())).toBe(text.slice(1));
  });

  it('refuses malformed UTF-8 wherever it is', async () => {
    const bytes = Buffer.concat([Buffer.alloc(3 << 20, 0x61), Buffer.from([0xc3]), Buffer.alloc(10, 0x61)]);
    await expect(decodeUtf8InTurns(bytes, new Turns())).rejects.toBeInstanceOf(TypeError);
    await expect(decodeUtf8InTurns(Buffer.from([0x61, 0xe2, 0x82]), new Turns())).rejects.toBeInstanceOf(TypeError);
  });
});
