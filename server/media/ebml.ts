/**
 * A minimal EBML (Matroska/WebM) reader: element IDs and sizes as variable-length integers
 * (RFC 8794 §4). Shared by the upload check (file-type.ts) and the remuxer (webm-to-ogg.ts).
 */

/** An element whose size field is all ones ("unknown", as Chromium's MediaRecorder writes). */
export const UNKNOWN_SIZE = -1;

export const ID = {
  EBML: 0x1a45dfa3,
  DocType: 0x4282,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  CodecID: 0x86,
  CodecPrivate: 0x63a2,
  CodecDelay: 0x56aa,
  Audio: 0xe1,
  Channels: 0x9f,
  Video: 0xe0,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  BlockDuration: 0x9b,
  DiscardPadding: 0x75a2,
  Cues: 0x1c53bb6b,
  Tags: 0x1254c367,
  Chapters: 0x1043a770,
  Attachments: 0x1941a469,
  Void: 0xec,
  CRC32: 0xbf,
} as const;

/** Children of Segment: where an unknown-size Cluster ends. */
export const SEGMENT_CHILDREN: ReadonlySet<number> = new Set([
  ID.SeekHead,
  ID.Info,
  ID.Tracks,
  ID.Cluster,
  ID.Cues,
  ID.Tags,
  ID.Chapters,
  ID.Attachments,
]);

export type EbmlElement = {
  id: number;
  /** Where the element's header starts. */
  start: number;
  dataStart: number;
  /** End of the data, clipped to the enclosing end; for an unknown size, the enclosing end. */
  dataEnd: number;
  /** Declared data size, or UNKNOWN_SIZE. */
  size: number;
  /** True when the declared size runs past the enclosing end (a cut-off file). */
  truncated: boolean;
};

function vintLength(first: number): number {
  if (first === 0) return 0;
  let length = 1;
  let mask = 0x80;
  while ((first & mask) === 0) {
    mask >>= 1;
    length++;
  }
  return length;
}

/** An element ID (marker bit kept, up to 4 bytes), or null when it cannot be read. */
export function readId(buf: Uint8Array, pos: number, end = buf.length): { id: number; length: number } | null {
  if (pos >= end) return null;
  const length = vintLength(buf[pos]);
  if (length === 0 || length > 4 || pos + length > end) return null;
  let id = 0;
  for (let i = 0; i < length; i++) id = id * 256 + buf[pos + i];
  return { id, length };
}

/** A data size (marker bit removed, up to 8 bytes); all ones is UNKNOWN_SIZE. */
export function readSize(buf: Uint8Array, pos: number, end = buf.length): { size: number; length: number } | null {
  if (pos >= end) return null;
  const length = vintLength(buf[pos]);
  if (length === 0 || pos + length > end) return null;
  let value = buf[pos] & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = buf[pos + i];
    if (b !== 0xff) allOnes = false;
    value = value * 256 + b;
  }
  if (allOnes) return { size: UNKNOWN_SIZE, length };
  if (!Number.isSafeInteger(value)) return null;
  return { size: value, length };
}

/** The element header at `pos`, or null when there is no complete header before `end`. */
export function readElement(buf: Uint8Array, pos: number, end = buf.length): EbmlElement | null {
  const id = readId(buf, pos, end);
  if (!id) return null;
  const size = readSize(buf, pos + id.length, end);
  if (!size) return null;
  const dataStart = pos + id.length + size.length;
  if (size.size === UNKNOWN_SIZE) {
    return { id: id.id, start: pos, dataStart, dataEnd: end, size: UNKNOWN_SIZE, truncated: false };
  }
  const declaredEnd = dataStart + size.size;
  return {
    id: id.id,
    start: pos,
    dataStart,
    dataEnd: Math.min(declaredEnd, end),
    size: size.size,
    truncated: declaredEnd > end,
  };
}

/** An unsigned integer element's value (up to 8 bytes, within Number's safe range). */
export function readUint(buf: Uint8Array, el: EbmlElement): number {
  let value = 0;
  for (let i = el.dataStart; i < el.dataEnd; i++) value = value * 256 + buf[i];
  return value;
}

export function readString(buf: Uint8Array, el: EbmlElement): string {
  let s = '';
  for (let i = el.dataStart; i < el.dataEnd; i++) {
    if (buf[i] === 0) break;
    s += String.fromCharCode(buf[i]);
  }
  return s;
}
