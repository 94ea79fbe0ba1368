import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKUP_MEDIA_BASE64_MAX, BACKUP_MEDIA_MAX_COUNT, backupMsg } from '../../../contract/backup';
import { UPLOAD_MAX_BYTES, uploadsMsg } from '../../../contract/uploads';
import { Turns } from './backup-json';
import { decodeMedia, type MediaEntry, splitMedia } from './backup-media';

const split = (text: string | Buffer) => splitMedia(Buffer.isBuffer(text) ? text : Buffer.from(text), new Turns());

/** The base64 of each image found, by id, as the file holds it. */
function texts(file: Buffer, media: Map<string, MediaEntry>): Record<string, string> {
  return Object.fromEntries([...media].map(([id, e]) => [id, file.toString('latin1', e.start, e.end)]));
}

describe('splitMedia', () => {
  it('cuts the top-level section out, as JSON.parse would read the file, whatever else it holds', async () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const image = fc.record({
      id: fc.uuid(),
      data: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')),
      fileName: fc.string({ maxLength: 20 }),
      extra: json,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.string({ maxLength: 8 }).filter((k) => k !== 'media'),
          json,
        ),
        fc.array(image, { maxLength: 5 }),
        fc.nat(),
        fc.boolean(),
        async (others, images, at, pretty) => {
          const media = images.map((m) => ({ url: `upload:${m.id}`, data: m.data, fileName: m.fileName, x: m.extra }));
          const entries = Object.entries(others);
          entries.splice(at % (entries.length + 1), 0, ['media', media]);
          const text = JSON.stringify(Object.fromEntries(entries), null, pretty ? 2 : undefined);
          const file = Buffer.from(text);
          const { rest, media: found, refused } = await split(file);
          expect(refused).toBeUndefined();
          expect(JSON.parse(rest.toString())).toEqual({ ...JSON.parse(text), media: null });
          const expected: Record<string, string> = {};
          for (const m of images) expected[m.id.toLowerCase()] ??= m.data;
          expect(texts(file, found)).toEqual(expected);
          for (const m of images)
            expect(found.get(m.id.toLowerCase())?.fileName).toBe(images.find((x) => x.id === m.id)?.fileName);
        },
      ),
      { seed: 13, numRuns: 300 },
    );
  });

  it('leaves a file without a top-level section, or whose shape is broken, whole for the JSON reader', async () => {
    const nested = Buffer.from('{"format":"disparo-backup","campaigns":[{"media":[1],"name":"\\"media\\""}]}');
    for (const file of [
      nested,
      Buffer.from('[{"media":[]}]'),
      Buffer.from('{"media":[{"url":"upload:x","data":"AAAA"}]'),
      Buffer.from('{"media":[]} {}'),
      Buffer.from('{"a" 1,"media":[]}'),
      Buffer.from('{"media":[],}'),
      Buffer.from('{"media":"sem fim}'),
    ]) {
      const { rest, media, refused } = await split(file);
      expect(rest, file.toString()).toBe(file);
      expect(media.size).toBe(0);
      expect(refused).toBeUndefined();
    }
  });

  it('keeps the last of a repeated key, as JSON.parse does, and ignores one spelt with escapes', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const file = Buffer.from(
      `\ufeff {"media":[{"url":"upload:${a}","data":"QQ=="}], "x":1, "media" : [{"url":"upload:${b}","data":"Qg=="}] }`,
    );
    const { rest, media } = await split(file);
    expect(JSON.parse(rest.toString().replace(/^\ufeff/, ''))).toEqual({ media: null, x: 1 });
    expect([...media.keys()]).toEqual([b]);
    const escaped = Buffer.from(`{"\\u006dedia":[{"url":"upload:${a}","data":"QQ=="}]}`);
    expect((await split(escaped)).rest).toBe(escaped);
  });

  it('notes an escape inside the base64, the first image of a reference, and a file name as it was', async () => {
    const id = randomUUID();
    const file = Buffer.from(
      JSON.stringify({
        media: [
          { url: `upload:${id.toUpperCase()}`, fileName: '../../etc/passwd', data: 'QU\\/B' },
          { url: `upload:${id}`, data: 'QUJD' },
        ],
      }).replace('QU\\\\/B', 'QU\\/B'),
    );
    const { media } = await split(file);
    expect(media.size).toBe(1);
    expect(media.get(id)).toMatchObject({ escaped: true, fileName: '../../etc/passwd' });
  });

  it('finds the key where the search windows meet', async () => {
    const id = randomUUID();
    // `{"pad":"…",` then the key, its quote 3 bytes before the first megabyte ends.
    const pad = 'x'.repeat((1 << 20) - 3 - '{"pad":"'.length - '",'.length);
    const file = Buffer.from(`{"pad":"${pad}","media":[{"url":"upload:${id}","data":"QUJD"}]}`);
    expect(file.indexOf('"media"')).toBe((1 << 20) - 3);
    const { media } = await split(file);
    expect(texts(file, media)).toEqual({ [id]: 'QUJD' });
  });

  it('refuses a section of the wrong shape, saying where', async () => {
    const id = randomUUID();
    const cases: Array<[string, PropertyKey[], string]> = [
      ['{"media":{}}', ['media'], backupMsg.mediaNotList],
      ['{"media":[[]]}', ['media', 0], backupMsg.mediaNotObject],
      ['{"media":[{"data":"QQ=="}]}', ['media', 0, 'url'], backupMsg.mediaUrlInvalid],
      ['{"media":[{"url":"/api/uploads/x","data":"QQ=="}]}', ['media', 0, 'url'], backupMsg.mediaUrlInvalid],
      [`{"media":[{"url":"upload:${id}"}]}`, ['media', 0, 'data'], backupMsg.mediaDataNotText],
      [`{"media":[{"url":"upload:${id}","data":null}]}`, ['media', 0, 'data'], backupMsg.mediaDataNotText],
      [
        `{"media":[{"url":"upload:${id}","fileName":7,"data":""}]}`,
        ['media', 0, 'fileName'],
        backupMsg.mediaFieldInvalid,
      ],
      [
        `{"media":[{"url":"upload:${id}","fileName":"${'a'.repeat(5000)}","data":""}]}`,
        ['media', 0, 'fileName'],
        backupMsg.mediaFieldInvalid,
      ],
      [
        JSON.stringify({
          media: Array.from({ length: BACKUP_MEDIA_MAX_COUNT + 1 }, () => ({
            url: `upload:${randomUUID()}`,
            data: '',
          })),
        }),
        ['media'],
        backupMsg.mediaTooMany,
      ],
    ];
    for (const [text, path, problem] of cases) {
      const { refused } = await split(text);
      expect(refused, text.slice(0, 80)).toMatchObject({ path, problem });
    }
    // Broken JSON inside the section is broken JSON.
    await expect(split(`{"media":[{"url" "upload:${id}"}]}`)).rejects.toBeInstanceOf(SyntaxError);
  });

  it('walks 80 MB of images in turns, without holding the thread for long', async () => {
    const image = Buffer.alloc(UPLOAD_MAX_BYTES, 3).toString('base64');
    const parts = Array.from({ length: 12 }, () => `{"url":"upload:${randomUUID()}","data":"${image}"}`);
    const file = Buffer.from(
      `{"format":"disparo-backup","contacts":[${'{"phone":"+5521999999999"},'.repeat(200_000)}{}],"media":[${parts.join(',')}]}`,
    );
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const { media } = await split(file);
    clearInterval(timer);
    expect(media.size).toBe(12);
    // Generous for a shared machine: a walk that never pauses holds the thread for the whole file.
    expect(longest).toBeLessThan(300);
  });
});

describe('decodeMedia', () => {
  const entryOf = (text: string) => {
    const file = Buffer.from(`"${text}"`);
    return { file, entry: { start: 1, end: file.length - 1, escaped: text.includes('\\'), fileName: '' } };
  };
  const decode = (text: string) => {
    const { file, entry } = entryOf(text);
    return decodeMedia(file, entry);
  };

  it('decodes strict base64 to the very bytes', () => {
    for (const bytes of [Buffer.from([0xff]), Buffer.from('ab'), Buffer.from('abc'), Buffer.alloc(1000, 0x89)]) {
      expect(decode(bytes.toString('base64'))).toEqual({ data: bytes });
    }
  });

  it('refuses anything else as corrupted, before or instead of decoding it', () => {
    for (const text of [
      'QUJD RA==',
      'QUJ=RA==',
      'QUJD\\nRA==',
      'QUJDRA=',
      'QUJDRB==',
      'QUJD-_==',
      'não!',
      'QUJDRA==\n',
    ]) {
      expect(decode(text), text).toEqual({ problem: backupMsg.mediaCorrupted });
    }
    expect(decode('')).toEqual({ problem: uploadsMsg.emptyFile });
  });

  it('bounds the size before decoding, and again on the bytes', () => {
    expect(decode('A'.repeat(BACKUP_MEDIA_BASE64_MAX + 4))).toEqual({ problem: uploadsMsg.tooLarge });
    // The same number of characters as the largest image, one byte more once decoded.
    const over = Buffer.alloc(UPLOAD_MAX_BYTES + 1, 1).toString('base64');
    expect(over.length).toBe(BACKUP_MEDIA_BASE64_MAX);
    expect(decode(over)).toEqual({ problem: uploadsMsg.tooLarge });
    const largest = Buffer.alloc(UPLOAD_MAX_BYTES, 1);
    const decoded = decode(largest.toString('base64'));
    // Compared natively: a deep comparison of five million elements takes minutes.
    expect('data' in decoded && decoded.data.equals(largest)).toBe(true);
  });
});
