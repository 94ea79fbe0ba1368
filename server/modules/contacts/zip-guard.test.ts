import { crc32, deflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { buildZip, deflatedZeros } from '../../testing/zip-bomb';
import { readSpreadsheet } from './spreadsheet-parser';
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

const realXlsx = () => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ['Nome', 'Telefone'],
      ['Ana', '21998765432'],
    ]),
    'S',
  );
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
};

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

  it('reads one spreadsheet per account at a time', async () => {
    const data = realXlsx();
    const first = readSpreadsheet('conta-a', 'xlsx', data);
    await expect(readSpreadsheet('conta-a', 'xlsx', data)).rejects.toMatchObject({ statusCode: 429 });
    const other = readSpreadsheet('conta-b', 'xlsx', data);
    expect(await first).toEqual([
      ['Nome', 'Telefone'],
      ['Ana', '21998765432'],
    ]);
    expect(await other).toHaveLength(2);
    expect(await readSpreadsheet('conta-a', 'xlsx', data)).toHaveLength(2);
  });
});
