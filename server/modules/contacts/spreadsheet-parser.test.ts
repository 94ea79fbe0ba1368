import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { contactsMsg } from '../../../contract/contacts';
import { lyingZipBomb, tinyXlsx } from '../../testing/zip-bomb';
import { SPREADSHEET_WORKER_LIMITS, SpreadsheetReader } from './spreadsheet-parser';

function sheet(rowCount: number, bookType: 'xlsx' | 'biff8'): Buffer {
  const rows: unknown[][] = [['Nome', 'Telefone', 'Email']];
  for (let i = 0; i < rowCount; i++) rows.push([`Cliente ${i} Conceição`, 21990000000 + i, `c${i}@exemplo.com.br`]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Contatos');
  return XLSX.write(book, { type: 'buffer', bookType, compression: true }) as Buffer;
}

describe('reading spreadsheets in a worker', () => {
  const reader = new SpreadsheetReader();
  const readSpreadsheet = reader.read.bind(reader);

  it("one app's reads do not hold up another's", async () => {
    const data = sheet(3, 'xlsx');
    const first = readSpreadsheet('conta-duas-apps', 'xlsx', data);
    // The same account busy in this reader is free in a reader of another app.
    expect(await new SpreadsheetReader().read('conta-duas-apps', 'xlsx', data)).toHaveLength(4);
    expect(await first).toHaveLength(4);
  });

  it('reads an .xlsx and an .xls, phones typed as numbers coming back as digits', async () => {
    for (const bookType of ['xlsx', 'biff8'] as const) {
      const rows = await readSpreadsheet('conta-leitura', bookType === 'xlsx' ? 'xlsx' : 'xls', sheet(3, bookType));
      expect(rows[0]).toEqual(['Nome', 'Telefone', 'Email']);
      expect(rows[3]).toEqual(['Cliente 2 Conceição', '21990000002', 'c2@exemplo.com.br']);
    }
  });

  it('refuses the lying zip bomb from its headers, before a worker starts', async () => {
    const bomb = await lyingZipBomb();
    const started = performance.now();
    await expect(readSpreadsheet('conta-bomba', 'xlsx', bomb)).rejects.toMatchObject({
      statusCode: 400,
      message: contactsMsg.invalidFile,
    });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('reads one spreadsheet per account at a time', async () => {
    const data = tinyXlsx();
    const first = readSpreadsheet('conta-a', 'xlsx', data);
    await expect(readSpreadsheet('conta-a', 'xlsx', data)).rejects.toMatchObject({
      statusCode: 429,
      message: contactsMsg.spreadsheetBusy,
    });
    const other = readSpreadsheet('conta-b', 'xlsx', data);
    expect(await first).toEqual([
      ['Nome', 'Telefone'],
      ['Ana', '21998765432'],
    ]);
    expect(await other).toHaveLength(2);
    // Free again once the first file is read, and after a refused one.
    await expect(
      readSpreadsheet('conta-a', 'xlsx', data, { ...SPREADSHEET_WORKER_LIMITS, timeoutMs: 1 }),
    ).rejects.toThrow();
    expect(await readSpreadsheet('conta-a', 'xlsx', data)).toHaveLength(2);
  });

  it('turns a worker out of memory or out of time into a pt-BR 413', async () => {
    const data = sheet(30_000, 'xlsx');
    const refused = { statusCode: 413, message: contactsMsg.spreadsheetTooLarge };
    await expect(readSpreadsheet('conta-heap', 'xlsx', data, { heapMb: 16, timeoutMs: 20_000 })).rejects.toMatchObject(
      refused,
    );
    await expect(readSpreadsheet('conta-tempo', 'xlsx', data, { heapMb: 256, timeoutMs: 1 })).rejects.toMatchObject(
      refused,
    );
    expect(await readSpreadsheet('conta-heap', 'xlsx', data)).toHaveLength(30_001);
  });

  it('refuses a file the library cannot read', async () => {
    const broken = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 7)]);
    await expect(readSpreadsheet('conta-quebrada', 'xls', broken)).rejects.toMatchObject({
      statusCode: 400,
      message: contactsMsg.invalidFile,
    });
  });
});
