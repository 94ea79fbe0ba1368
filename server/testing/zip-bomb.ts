import { createDeflateRaw } from 'node:zlib';
import * as XLSX from '@e965/xlsx';

/** A raw deflate stream of `bytes` zeros (built in 1 MB steps, never holding the zeros at once). */
export async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const chunk = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= chunk.length) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    if (!deflate.write(piece)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

export interface ZipPart {
  name: string;
  data: Buffer;
  /** What each header says; by default both tell the truth about a deflated part. */
  local: { method: number; size: number; compressed?: number };
  central: { method: number; size: number; compressed?: number };
  crc?: number;
}

/** A zip whose two headers per part say whatever the test wants (for decompression-bomb tests). */
export function buildZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.local.method, 8);
    local.writeUInt32LE(part.crc ?? 0, 14);
    local.writeUInt32LE(part.local.compressed ?? part.data.length, 18);
    local.writeUInt32LE(part.local.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(part.central.method, 10);
    central.writeUInt32LE(part.crc ?? 0, 16);
    central.writeUInt32LE(part.central.compressed ?? part.data.length, 20);
    central.writeUInt32LE(part.central.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.data);
    centrals.push(central, name);
    offset += local.length + name.length + part.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * The probe's file: the central directory says the sheet is stored and small, the local header says
 * deflate and 1.17 GB, and the data is that many zeros, deflated (about 1.1 MB).
 */
export async function lyingZipBomb(bytes = 1_170_000_000): Promise<Buffer> {
  const data = await deflatedZeros(bytes);
  return buildZip([
    {
      name: 'xl/worksheets/sheet1.xml',
      data,
      local: { method: 8, size: bytes },
      central: { method: 0, size: data.length },
    },
  ]);
}

/** A small real .xlsx: a header row and one contact. */
export function tinyXlsx(
  rows: string[][] = [
    ['Nome', 'Telefone'],
    ['Ana', '21998765432'],
  ],
): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Contatos');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
