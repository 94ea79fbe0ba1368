import * as zlib from 'node:zlib';

/**
 * Checks an .xlsx (a zip) before the spreadsheet library opens it, trusting neither of the zip's
 * two descriptions of each part: the central directory at the end and the local header before the
 * data. A decompression bomb can make them disagree (the directory says "stored, 1 MB", the local
 * header "deflate", the data 1 GB of zeros); the library trusts the local header. Here they must
 * agree, each part is inflated with a hard cap on its output, and what comes out must be exactly
 * what was declared.
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

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxTotalBytes: 80 * 1024 * 1024, maxEntries: 5_000 };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;
const ENCRYPTED = 0x1;
const DATA_DESCRIPTOR = 0x8;

const invalid = () => new ZipRefused('invalid');
const tooLarge = () => new ZipRefused('too_large');

interface Entry {
  name: Buffer;
  method: number;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  localOffset: number;
  dataStart: number;
}

function findEndOfCentralDirectory(data: Buffer): number {
  for (let i = data.length - 22; i >= Math.max(0, data.length - 65_557); i--) {
    if (data.readUInt32LE(i) === EOCD) return i;
  }
  throw invalid();
}

function readCentralDirectory(data: Buffer, limits: ZipLimits): Entry[] {
  const eocd = findEndOfCentralDirectory(data);
  if (eocd >= 20 && data.readUInt32LE(eocd - 20) === ZIP64_LOCATOR) throw tooLarge();
  const diskEntries = data.readUInt16LE(eocd + 8);
  const count = data.readUInt16LE(eocd + 10);
  const size = data.readUInt32LE(eocd + 12);
  const offset = data.readUInt32LE(eocd + 16);
  if (data.readUInt16LE(eocd + 4) !== 0 || data.readUInt16LE(eocd + 6) !== 0 || diskEntries !== count) throw invalid();
  if (count === 0xffff || offset === 0xffffffff || size === 0xffffffff) throw tooLarge();
  if (count > limits.maxEntries) throw tooLarge();
  if (offset + size > eocd) throw invalid();

  const entries: Entry[] = [];
  let p = offset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || data.readUInt32LE(p) !== CENTRAL) throw invalid();
    const nameLength = data.readUInt16LE(p + 28);
    const entry: Entry = {
      flags: data.readUInt16LE(p + 8),
      method: data.readUInt16LE(p + 10),
      crc: data.readUInt32LE(p + 16),
      compressed: data.readUInt32LE(p + 20),
      size: data.readUInt32LE(p + 24),
      localOffset: data.readUInt32LE(p + 42),
      name: data.subarray(p + 46, p + 46 + nameLength),
      dataStart: 0,
    };
    p += 46 + nameLength + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
    if (p > offset + size) throw invalid();
    if (entry.compressed === 0xffffffff || entry.size === 0xffffffff || entry.localOffset === 0xffffffff) {
      throw tooLarge();
    }
    if (entry.flags & ENCRYPTED) throw invalid();
    if (entry.method !== 0 && entry.method !== 8) throw invalid();
    entries.push(entry);
  }
  return entries;
}

/** The local header must describe the same part as the directory, and its data must fit before the directory. */
function checkLocalHeader(data: Buffer, entry: Entry, directoryStart: number): void {
  const p = entry.localOffset;
  if (p + 30 > directoryStart || data.readUInt32LE(p) !== LOCAL) throw invalid();
  const flags = data.readUInt16LE(p + 6);
  const method = data.readUInt16LE(p + 8);
  const nameLength = data.readUInt16LE(p + 26);
  const extraLength = data.readUInt16LE(p + 28);
  if (method !== entry.method || (flags & ENCRYPTED) !== 0) throw invalid();
  if (!data.subarray(p + 30, p + 30 + nameLength).equals(entry.name)) throw invalid();
  if (!(flags & DATA_DESCRIPTOR)) {
    // Without a data descriptor the local header carries the sizes and CRC itself: they must match.
    const crc = data.readUInt32LE(p + 14);
    const compressed = data.readUInt32LE(p + 18);
    const size = data.readUInt32LE(p + 22);
    if (crc !== entry.crc || compressed !== entry.compressed || size !== entry.size) throw invalid();
  }
  entry.dataStart = p + 30 + nameLength + extraLength;
  if (entry.dataStart + entry.compressed > directoryStart) throw invalid();
}

function directoryStart(data: Buffer): number {
  return data.readUInt32LE(findEndOfCentralDirectory(data) + 16);
}

/**
 * The cheap half: both headers of every part agree, the declared sizes fit the limits, parts do not
 * overlap. Reads only headers (no inflating), so it runs on the main thread before a worker starts.
 */
export function checkZipStructure(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Entry[] {
  if (data.length < 22) throw invalid();
  const entries = readCentralDirectory(data, limits);
  const cdStart = directoryStart(data);
  let declared = 0;
  for (const entry of entries) {
    declared += entry.size;
    if (declared > limits.maxTotalBytes) throw tooLarge();
    checkLocalHeader(data, entry, cdStart);
  }
  // Parts may not overlap: one compressed stream named twice would inflate twice.
  const ranges = entries.map((e) => [e.localOffset, e.dataStart + e.compressed]).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < ranges.length; i++) if (ranges[i][0] < ranges[i - 1][1]) throw invalid();
  return entries;
}

/** Throws ZipRefused unless every part of the zip is consistent and inflates to exactly its declared size. */
export function assertSafeZip(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): void {
  for (const entry of checkZipStructure(data, limits)) {
    const raw = data.subarray(entry.dataStart, entry.dataStart + entry.compressed);
    let out: Buffer;
    if (entry.method === 0) {
      if (entry.compressed !== entry.size) throw invalid();
      out = raw;
    } else {
      try {
        // One byte over the declared size is enough to know the part lies; nothing more is inflated.
        out = zlib.inflateRawSync(raw, { maxOutputLength: entry.size + 1 });
      } catch (err) {
        throw (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : invalid();
      }
      if (out.length !== entry.size) throw out.length > entry.size ? tooLarge() : invalid();
    }
    if (typeof zlib.crc32 === 'function' && zlib.crc32(out) >>> 0 !== entry.crc) throw invalid();
  }
}
