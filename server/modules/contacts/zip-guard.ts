import * as zlib from 'node:zlib';

/**
 * Checks an .xlsx (a zip) before the spreadsheet library opens it. A zip describes each part twice:
 * in the central directory at the end and in a local header before the data. A decompression bomb
 * makes them disagree (the directory says "stored, 1 MB", the local header "deflate, 1 GB") and the
 * library trusts the local header, so here both must agree field by field, the parts must lie one
 * after another without overlapping, and each deflated part is inflated with a hard cap on its
 * output and must give back exactly its declared size and CRC. What passes is what the library
 * will inflate, byte for byte.
 */
export class ZipRefused extends Error {
  constructor(readonly reason: 'invalid' | 'too_large') {
    super(reason);
  }
}

export interface ZipLimits {
  /** Most bytes all parts may inflate to, together. */
  maxTotalBytes: number;
  maxEntries: number;
}

/**
 * 200,000 rows of name, phone, e-mail and tags unzip to about 50 MB of XML, so 100 MB leaves room
 * for wider sheets while a worker's heap still holds the parsed text.
 */
export const XLSX_MAX_UNZIPPED_BYTES = 100 * 1024 * 1024;
export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxTotalBytes: XLSX_MAX_UNZIPPED_BYTES, maxEntries: 5_000 };

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** Encrypted, strongly encrypted, or with the local header masked: none can be checked. */
const ENCRYPTION_FLAGS = 0x2041;
const DATA_DESCRIPTOR = 0x8;
/** The extra field that carries 64-bit sizes; the library lets it override both headers. */
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;

const invalid = () => new ZipRefused('invalid');
const tooLarge = () => new ZipRefused('too_large');

export interface ZipEntry {
  name: Buffer;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  localOffset: number;
  /** Where the part's (compressed) bytes start, after its local header. */
  dataStart: number;
}

/**
 * The end-of-directory record the library will use: it takes the last signature in the file, so a
 * second record hidden in the comment of the first cannot point it at another directory. The
 * record and its comment must end the file exactly.
 */
function findEndOfDirectory(data: Buffer): number {
  const lowest = Math.max(0, data.length - 22 - 0xffff);
  for (let i = data.length - 4; i >= lowest; i--) {
    if (data.readUInt32LE(i) !== END_OF_DIRECTORY) continue;
    if (i + 22 > data.length || i + 22 + data.readUInt16LE(i + 20) !== data.length) throw invalid();
    return i;
  }
  throw invalid();
}

/** Zip64 sizes in an extra field, walked record by record the way the library walks it. */
function hasZip64Extra(extra: Buffer): boolean {
  for (let q = 0; q + 4 <= extra.length; q += 4 + extra.readUInt16LE(q + 2)) {
    if (extra.readUInt16LE(q) === ZIP64_EXTRA) return true;
  }
  return false;
}

function readDirectory(data: Buffer, limits: ZipLimits): { entries: ZipEntry[]; directoryStart: number } {
  if (data.length < 22) throw invalid();
  const end = findEndOfDirectory(data);
  const diskEntries = data.readUInt16LE(end + 8);
  const count = data.readUInt16LE(end + 10);
  const size = data.readUInt32LE(end + 12);
  const start = data.readUInt32LE(end + 16);
  if (count === 0xffff || size === 0xffffffff || start === 0xffffffff) throw tooLarge(); // zip64
  if (data.readUInt16LE(end + 4) !== 0 || data.readUInt16LE(end + 6) !== 0 || diskEntries !== count) throw invalid();
  if (count > limits.maxEntries) throw tooLarge();
  if (start + size !== end) throw invalid();

  const entries: ZipEntry[] = [];
  let p = start;
  for (let n = 0; n < count; n++) {
    if (p + 46 > end || data.readUInt32LE(p) !== DIRECTORY_ENTRY) throw invalid();
    const nameLength = data.readUInt16LE(p + 28);
    const extraLength = data.readUInt16LE(p + 30);
    const next = p + 46 + nameLength + extraLength + data.readUInt16LE(p + 32);
    if (next > end) throw invalid();
    const entry: ZipEntry = {
      method: data.readUInt16LE(p + 10),
      crc: data.readUInt32LE(p + 16),
      compressed: data.readUInt32LE(p + 20),
      size: data.readUInt32LE(p + 24),
      localOffset: data.readUInt32LE(p + 42),
      name: data.subarray(p + 46, p + 46 + nameLength),
      dataStart: 0,
    };
    const extra = data.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength);
    if (entry.compressed === 0xffffffff || entry.size === 0xffffffff || entry.localOffset === 0xffffffff) {
      throw tooLarge();
    }
    if (hasZip64Extra(extra)) throw tooLarge();
    if (data.readUInt16LE(p + 8) & ENCRYPTION_FLAGS) throw invalid();
    if (entry.method !== STORED && entry.method !== DEFLATED) throw invalid();
    entries.push(entry);
    p = next;
  }
  if (p !== end) throw invalid();
  return { entries, directoryStart: start };
}

/** The local header must describe the same part as the directory, and its data must end before the directory. */
function checkLocalHeader(data: Buffer, entry: ZipEntry, directoryStart: number): void {
  const p = entry.localOffset;
  if (p + 30 > directoryStart || data.readUInt32LE(p) !== LOCAL_HEADER) throw invalid();
  const flags = data.readUInt16LE(p + 6);
  const nameLength = data.readUInt16LE(p + 26);
  const extraLength = data.readUInt16LE(p + 28);
  entry.dataStart = p + 30 + nameLength + extraLength;
  if (entry.dataStart + entry.compressed > directoryStart) throw invalid();
  if (flags & ENCRYPTION_FLAGS || data.readUInt16LE(p + 8) !== entry.method) throw invalid();
  if (!data.subarray(p + 30, p + 30 + nameLength).equals(entry.name)) throw invalid();
  if (hasZip64Extra(data.subarray(p + 30 + nameLength, entry.dataStart))) throw tooLarge();
  // The local CRC and sizes must be the directory's; a data descriptor allows zeros instead (they
  // follow the data), nothing else: the library sizes its output buffer from the local header.
  const descriptor = (flags & DATA_DESCRIPTOR) !== 0;
  const agrees = (local: number, declared: number) => local === declared || (descriptor && local === 0);
  if (
    !agrees(data.readUInt32LE(p + 14), entry.crc) ||
    !agrees(data.readUInt32LE(p + 18), entry.compressed) ||
    !agrees(data.readUInt32LE(p + 22), entry.size)
  ) {
    throw invalid();
  }
}

/**
 * The cheap half: both headers of every part agree, the declared sizes fit the limits, parts do not
 * overlap. Reads headers only (nothing is inflated), so it may run on the main thread.
 */
export function checkZipStructure(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
  const { entries, directoryStart } = readDirectory(data, limits);
  let declared = 0;
  for (const entry of entries) {
    declared += entry.size;
    if (declared > limits.maxTotalBytes) throw tooLarge();
    checkLocalHeader(data, entry, directoryStart);
  }
  // One compressed stream named by two entries would be inflated twice.
  const ranges = entries.map((e) => [e.localOffset, e.dataStart + e.compressed]).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < ranges.length; i++) if (ranges[i][0] < ranges[i - 1][1]) throw invalid();
  return entries;
}

/**
 * Throws ZipRefused unless the zip is consistent and every part inflates to exactly its declared
 * size and CRC. Inflating costs time (up to the total limit), so this runs in the spreadsheet worker.
 */
export function assertSafeZip(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): void {
  for (const entry of checkZipStructure(data, limits)) {
    const raw = data.subarray(entry.dataStart, entry.dataStart + entry.compressed);
    let out: Buffer;
    if (entry.method === STORED) {
      if (entry.compressed !== entry.size) throw invalid();
      out = raw;
    } else {
      try {
        // One byte past the declared size proves the part lies; nothing beyond it is inflated. A
        // stream that does not end inside its declared compressed size fails here too.
        out = zlib.inflateRawSync(raw, { maxOutputLength: entry.size + 1 });
      } catch (err) {
        throw (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : invalid();
      }
      if (out.length !== entry.size) throw out.length > entry.size ? tooLarge() : invalid();
    }
    if (zlib.crc32(out) !== entry.crc) throw invalid();
  }
}
