import { describe, expect, it } from 'vitest';
import { detectFileKind, readTextRows, utf16Endianness } from './import-file';

const csv = 'Nome;Telefone\r\nJosé Conceição;21998765432\r\nAna;(11) 91234-5678\r\n';
const rows = [
  ['Nome', 'Telefone'],
  ['José Conceição', '21998765432'],
  ['Ana', '(11) 91234-5678'],
];
const le = Buffer.from(csv, 'utf16le');
const be = Buffer.from(le).swap16();
const bom = (mark: number[], data: Buffer) => Buffer.concat([Buffer.from(mark), data]);

describe('text files', () => {
  it('reads UTF-16 in either byte order, with or without a byte-order mark', () => {
    expect(utf16Endianness(le)).toBe('utf-16le');
    expect(utf16Endianness(be)).toBe('utf-16be');
    for (const data of [le, be, bom([0xff, 0xfe], le), bom([0xfe, 0xff], be)]) {
      expect(detectFileKind('contatos.csv', data)).toBe('csv');
      expect(readTextRows(data).filter((r) => r.some((c) => c !== ''))).toEqual(rows);
    }
  });

  it('keeps reading UTF-8 and Windows-1252, and refuses binary', () => {
    expect(utf16Endianness(Buffer.from(csv))).toBeNull();
    expect(readTextRows(Buffer.from(csv, 'latin1'))[1]).toEqual(['José Conceição', '21998765432']);
    const binary = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0, 0, 9, 0, 0xff, 0, 3, 4]);
    expect(utf16Endianness(binary)).toBeNull();
    expect(() => detectFileKind('contatos.csv', binary)).toThrow();
  });
});
