import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildZip, deflatedZeros, tinyXlsx } from '../../testing/zip-bomb';
import { assertSafeZip, ZipRefused } from './zip-guard';

const reason = (data: Buffer) => {
  try {
    assertSafeZip(data);
    return 'ok';
  } catch (err) {
    if (err instanceof ZipRefused) return err.reason;
    throw err;
  }
};

const realXlsx = () => tinyXlsx();

describe('zip guard', () => {
  it('lets a real spreadsheet through', () => {
    expect(reason(realXlsx())).toBe('ok');
  });

  it('refuses a part whose two headers disagree on the method (the lying bomb)', async () => {
    const data = await deflatedZeros(64 * 1024 * 1024);
    const bomb = buildZip([
      {
        name: 'xl/worksheets/sheet1.xml',
        data,
        local: { method: 8, size: 64 * 1024 * 1024 },
        central: { method: 0, size: data.length },
      },
    ]);
    const started = Date.now();
    expect(reason(bomb)).toBe('invalid');
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('inflates no more than declared: a part that says small and inflates big is stopped at the cap', async () => {
    const data = await deflatedZeros(32 * 1024 * 1024);
    const crc = 0;
    const liar = buildZip([
      { name: 'a.xml', data, crc, local: { method: 8, size: 1000 }, central: { method: 8, size: 1000 } },
    ]);
    expect(reason(liar)).toBe('too_large');
  });

  it('refuses declared sizes past the total limit before inflating anything', () => {
    const data = deflateRawSync(Buffer.from('x'));
    const huge = buildZip([
      { name: 'a.xml', data, local: { method: 8, size: 2_000_000_000 }, central: { method: 8, size: 2_000_000_000 } },
    ]);
    expect(reason(huge)).toBe('too_large');
  });

  it('refuses other inconsistencies: names, sizes, CRC, overlapping parts, stored sizes', () => {
    const text = Buffer.from('<xml>ok</xml>');
    const data = deflateRawSync(text);
    const crc = crc32(text);
    const good = {
      name: 'a.xml',
      data,
      crc,
      local: { method: 8, size: text.length },
      central: { method: 8, size: text.length },
    };
    expect(reason(buildZip([good]))).toBe('ok');
    expect(reason(buildZip([{ ...good, crc: crc ^ 1 }]))).toBe('invalid');
    expect(reason(buildZip([{ ...good, local: { method: 8, size: text.length + 1 } }]))).toBe('invalid');
    expect(
      reason(
        buildZip([
          { ...good, central: { method: 8, size: text.length - 1 }, local: { method: 8, size: text.length - 1 } },
        ]),
      ),
    ).toBe('too_large');
    const renamed = buildZip([good]);
    renamed.write('b', 30); // the local header's name
    expect(reason(renamed)).toBe('invalid');
    const stored = {
      name: 's.xml',
      data: text,
      crc,
      local: { method: 0, size: text.length + 5 },
      central: { method: 0, size: text.length + 5 },
    };
    expect(reason(buildZip([stored]))).toBe('invalid');
    expect(reason(Buffer.from('PK\u0003\u0004 not a zip at all'))).toBe('invalid');
  });

  it('refuses what the library would read differently: zip64 sizes, encryption, lying local sizes, a second directory', () => {
    const text = Buffer.from('<xml>ok</xml>');
    const good = {
      name: 'a.xml',
      data: deflateRawSync(text),
      crc: crc32(text),
      local: { method: 8, size: text.length },
      central: { method: 8, size: text.length },
    };
    const zip = () => buildZip([good]);
    const directory = (z: Buffer) => z.readUInt32LE(z.length - 22 + 16);
    const flagged = (where: 'local' | 'central', flag: number) => {
      const z = zip();
      const at = where === 'local' ? 6 : directory(z) + 8;
      z.writeUInt16LE(z.readUInt16LE(at) | flag, at);
      return z;
    };
    expect(reason(flagged('local', 0x1))).toBe('invalid');
    expect(reason(flagged('central', 0x1))).toBe('invalid');

    // With a data descriptor the local sizes may be zero, never anything else: the library sizes
    // its output buffer from them.
    const described = flagged('local', 0x8);
    described.writeUInt32LE(0, 14);
    described.writeUInt32LE(0, 18);
    described.writeUInt32LE(0, 22);
    expect(reason(described)).toBe('ok');
    described.writeUInt32LE(0xfffffff0, 22);
    expect(reason(described)).toBe('invalid');

    // A zip64 extra field overrides both headers' sizes in the library. Its bytes ride in the name
    // here, then the lengths are split so that they become the extra field.
    const zip64 = Buffer.from([1, 0, 16, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]);
    const extended = buildZip([{ ...good, name: `a.xml${zip64.toString('latin1')}` }]);
    for (const at of [26, directory(extended) + 28]) {
      extended.writeUInt16LE(5, at);
      extended.writeUInt16LE(zip64.length, at + 2);
    }
    expect(reason(extended)).toBe('too_large');

    // The library takes the last end-of-directory signature in the file: one hidden at the end of
    // the comment must not lead it to a directory the guard never read.
    const commented = Buffer.concat([zip(), Buffer.from('PK\u0005\u0006'), Buffer.alloc(16)]);
    commented.writeUInt16LE(20, commented.length - 22);
    expect(reason(commented)).toBe('invalid');
    expect(reason(Buffer.concat([zip(), Buffer.from('trailing bytes')]))).toBe('invalid');

    // Two directory entries naming the same part: one stream inflated twice.
    const twice = buildZip([good, good]);
    const second = directory(twice) + 46 + good.name.length;
    twice.writeUInt32LE(0, second + 42);
    expect(reason(twice)).toBe('invalid');
  });

  it('refuses more parts than the limit', () => {
    const part = {
      name: 'a.xml',
      data: Buffer.alloc(0),
      crc: 0,
      local: { method: 0, size: 0 },
      central: { method: 0, size: 0 },
    };
    const three = buildZip([part, { ...part, name: 'b.xml' }, { ...part, name: 'c.xml' }]);
    expect(reason(three)).toBe('ok');
    expect(() => assertSafeZip(three, { maxTotalBytes: 1024, maxEntries: 2 })).toThrow(ZipRefused);
  });
});
