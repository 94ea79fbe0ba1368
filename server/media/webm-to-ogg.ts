import { randomBytes } from 'node:crypto';
import {
  type EbmlElement,
  ID,
  readElement,
  readSize,
  readString,
  readUint,
  SEGMENT_CHILDREN,
  UNKNOWN_SIZE,
} from './ebml';

/**
 * Remuxes a WebM/Matroska file holding one Opus audio track (the browser's voice recording) into
 * an Ogg Opus file (RFC 7845) without re-encoding: the Opus packets are copied as they are.
 *
 * - OpusHead comes from the track's CodecPrivate (or, without one, is built from Channels and
 *   CodecDelay); OpusTags is written fresh.
 * - Granule positions count 48 kHz samples from the packets' own TOC bytes (RFC 6716 §3.1), from 0,
 *   so they include the pre-skip samples (RFC 7845 §4): the playable length is the last granule
 *   minus pre-skip. A DiscardPadding on the last block trims the last granule.
 * - Unknown-size Segment and Cluster elements (Chromium's MediaRecorder) are read up to the next
 *   Segment-level element or the end of the file; a cut-off last block is dropped.
 * Throws an Error saying why on anything it cannot remux.
 */
export function webmOpusToOgg(webm: Buffer): Buffer {
  const parsed = parseWebm(webm);
  const head = parsed.opusHead;
  const preSkip = head.readUInt16LE(10);
  const packets = parsed.frames;
  if (packets.length === 0) throw new Error('WebM has no Opus frames');

  const writer = new OggWriter(randomBytes(4).readUInt32LE(0));
  writer.page([head], 0n, FLAG_BOS);
  writer.page([opusTags()], 0n, 0);

  let granule = 0n;
  let pagePackets: Buffer[] = [];
  let pageSegments = 0;
  let pageBytes = 0;
  for (let i = 0; i < packets.length; i++) {
    const packet = packets[i].data;
    const segments = Math.floor(packet.length / 255) + 1;
    if (segments > 255) throw new Error(`Opus packet ${i} is too large for one Ogg page (${packet.length} bytes)`);
    if (pagePackets.length > 0 && (pageSegments + segments > 255 || pageBytes + packet.length > PAGE_TARGET_BYTES)) {
      writer.page(pagePackets, granule, 0);
      pagePackets = [];
      pageSegments = 0;
      pageBytes = 0;
    }
    granule += BigInt(opusPacketSamples(packet, i));
    pagePackets.push(packet);
    pageSegments += segments;
    pageBytes += packet.length;
  }
  const discard = packets[packets.length - 1].discardPaddingNs;
  if (discard > 0) {
    const trim = BigInt(Math.round((discard * 48_000) / 1e9));
    granule = granule - trim > BigInt(preSkip) ? granule - trim : BigInt(preSkip);
  }
  writer.page(pagePackets, granule, FLAG_EOS);
  return Buffer.concat(writer.pages);
}

/** Seconds of audio in an Ogg Opus file: the last granule position minus pre-skip, at 48 kHz. */
export function oggOpusDuration(ogg: Buffer): number {
  let pos = 0;
  let preSkip: number | null = null;
  let last = -1n;
  while (pos + 27 <= ogg.length) {
    if (ogg.readUInt32BE(pos) !== 0x4f676753) throw new Error(`no Ogg page at byte ${pos}`);
    const nseg = ogg[pos + 26];
    if (pos + 27 + nseg > ogg.length) throw new Error('Ogg page header cut off');
    let size = 0;
    for (let i = 0; i < nseg; i++) size += ogg[pos + 27 + i];
    const dataStart = pos + 27 + nseg;
    if (dataStart + size > ogg.length) throw new Error('Ogg page cut off');
    if (preSkip === null) {
      if (size < 19 || ogg.toString('latin1', dataStart, dataStart + 8) !== 'OpusHead') {
        throw new Error('first Ogg page is not OpusHead');
      }
      preSkip = ogg.readUInt16LE(dataStart + 10);
    }
    const granule = ogg.readBigInt64LE(pos + 6);
    if (granule !== -1n) last = granule;
    pos = dataStart + size;
  }
  if (preSkip === null) throw new Error('not an Ogg Opus file');
  const samples = Number(last) - preSkip;
  return samples > 0 ? samples / 48_000 : 0;
}

/** Samples (at 48 kHz) in one Opus packet, from its TOC byte and frame count (RFC 6716 §3.1). */
export function opusPacketSamples(packet: Uint8Array, index = 0): number {
  if (packet.length < 1) throw new Error(`Opus packet ${index} is empty`);
  const toc = packet[0];
  const config = toc >> 3;
  let frameSamples: number;
  if (config < 12) frameSamples = [480, 960, 1920, 2880][config % 4];
  else if (config < 16) frameSamples = [480, 960][config % 2];
  else frameSamples = [120, 240, 480, 960][config % 4];
  const code = toc & 3;
  let frames: number;
  if (code === 0) frames = 1;
  else if (code === 1 || code === 2) frames = 2;
  else {
    if (packet.length < 2) throw new Error(`Opus packet ${index} has code 3 but no frame count byte`);
    frames = packet[1] & 0x3f;
    if (frames === 0) throw new Error(`Opus packet ${index} has zero frames`);
  }
  const samples = frameSamples * frames;
  if (samples > 5760) throw new Error(`Opus packet ${index} is longer than 120 ms`);
  return samples;
}

const FLAG_BOS = 0x02;
const FLAG_EOS = 0x04;
/** Audio pages close at about this many bytes (or 255 lacing values). */
const PAGE_TARGET_BYTES = 8 * 1024;

type Frame = { data: Buffer; discardPaddingNs: number };

type Track = {
  number: number;
  type: number;
  codec: string;
  codecPrivate?: Buffer;
  codecDelay: number;
  channels: number;
};

function parseWebm(buf: Buffer): { opusHead: Buffer; frames: Frame[] } {
  const header = readElement(buf, 0);
  if (!header || header.id !== ID.EBML) throw new Error('not a WebM file (no EBML header)');
  let docType = 'matroska';
  forEachChild(buf, header, (el) => {
    if (el.id === ID.DocType) docType = readString(buf, el);
  });
  if (docType !== 'webm' && docType !== 'matroska') throw new Error(`unsupported EBML DocType '${docType}'`);

  let pos = header.dataEnd;
  let segment: EbmlElement | null = null;
  while (pos < buf.length) {
    const el = readElement(buf, pos);
    if (!el) break;
    if (el.id === ID.Segment) {
      segment = el;
      break;
    }
    if (el.size === UNKNOWN_SIZE) throw new Error('unknown-size element before the Segment');
    pos = el.dataEnd;
  }
  if (!segment) throw new Error('WebM has no Segment');

  const tracks: Track[] = [];
  const blocks: { track: number; frames: Buffer[]; discardPaddingNs: number }[] = [];
  pos = segment.dataStart;
  while (pos < segment.dataEnd) {
    const el = readElement(buf, pos, segment.dataEnd);
    if (!el) break;
    if (el.id === ID.Tracks) {
      forEachChild(buf, el, (entry) => {
        if (entry.id === ID.TrackEntry) tracks.push(readTrack(buf, entry));
      });
      pos = el.dataEnd;
    } else if (el.id === ID.Cluster) {
      pos = readCluster(buf, el, blocks);
    } else {
      if (el.size === UNKNOWN_SIZE) throw new Error(`unknown-size element 0x${el.id.toString(16)} in the Segment`);
      pos = el.dataEnd;
    }
  }

  if (tracks.length === 0) throw new Error('WebM has no Tracks');
  if (tracks.some((t) => t.type === 1)) throw new Error('WebM has a video track; only audio can be remuxed');
  const opus = tracks.filter((t) => t.codec === 'A_OPUS');
  if (opus.length !== 1 || tracks.length !== 1) {
    throw new Error(`WebM must have exactly one Opus audio track (found: ${tracks.map((t) => t.codec).join(', ')})`);
  }
  const track = opus[0];
  const frames: Frame[] = [];
  for (const block of blocks) {
    if (block.track !== track.number) continue;
    for (const data of block.frames) frames.push({ data, discardPaddingNs: 0 });
    if (block.frames.length > 0) frames[frames.length - 1].discardPaddingNs = block.discardPaddingNs;
  }
  return { opusHead: opusHead(track), frames };
}

function forEachChild(buf: Buffer, parent: EbmlElement, visit: (el: EbmlElement) => void): void {
  let pos = parent.dataStart;
  while (pos < parent.dataEnd) {
    const el = readElement(buf, pos, parent.dataEnd);
    if (!el) break;
    if (el.size === UNKNOWN_SIZE) throw new Error(`unknown-size element 0x${el.id.toString(16)} where none is allowed`);
    visit(el);
    pos = el.dataEnd;
  }
}

function readTrack(buf: Buffer, entry: EbmlElement): Track {
  const track: Track = { number: 0, type: 0, codec: '', codecDelay: 0, channels: 1 };
  forEachChild(buf, entry, (el) => {
    if (el.id === ID.TrackNumber) track.number = readUint(buf, el);
    else if (el.id === ID.TrackType) track.type = readUint(buf, el);
    else if (el.id === ID.CodecID) track.codec = readString(buf, el);
    else if (el.id === ID.CodecPrivate) track.codecPrivate = Buffer.from(buf.subarray(el.dataStart, el.dataEnd));
    else if (el.id === ID.CodecDelay) track.codecDelay = readUint(buf, el);
    else if (el.id === ID.Audio) {
      forEachChild(buf, el, (a) => {
        if (a.id === ID.Channels) track.channels = readUint(buf, a);
      });
    }
  });
  return track;
}

function opusHead(track: Track): Buffer {
  const p = track.codecPrivate;
  if (p && p.length > 0) {
    if (p.length < 19 || p.toString('latin1', 0, 8) !== 'OpusHead') throw new Error('CodecPrivate is not an OpusHead');
    if (p[8] >> 4 !== 0) throw new Error(`unsupported OpusHead version ${p[8]}`);
    return p;
  }
  if (track.channels < 1 || track.channels > 2) throw new Error('Opus track without CodecPrivate has over 2 channels');
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = track.channels;
  head.writeUInt16LE(Math.min(0xffff, Math.round((track.codecDelay * 48_000) / 1e9)), 10);
  head.writeUInt32LE(48_000, 12);
  return head;
}

/** Reads one Cluster's blocks; answers where the next Segment-level element starts. */
function readCluster(
  buf: Buffer,
  cluster: EbmlElement,
  blocks: { track: number; frames: Buffer[]; discardPaddingNs: number }[],
): number {
  const unknown = cluster.size === UNKNOWN_SIZE;
  let pos = cluster.dataStart;
  while (pos < cluster.dataEnd) {
    const el = readElement(buf, pos, cluster.dataEnd);
    if (!el) return cluster.dataEnd;
    if (unknown && SEGMENT_CHILDREN.has(el.id)) return pos;
    if (el.size === UNKNOWN_SIZE) throw new Error(`unknown-size element 0x${el.id.toString(16)} in a Cluster`);
    if (el.truncated) return cluster.dataEnd;
    if (el.id === ID.SimpleBlock) {
      blocks.push({ ...readBlock(buf, el.dataStart, el.dataEnd), discardPaddingNs: 0 });
    } else if (el.id === ID.BlockGroup) {
      let block: { track: number; frames: Buffer[] } | null = null;
      let discardPaddingNs = 0;
      forEachChild(buf, el, (child) => {
        if (child.id === ID.Block) block = readBlock(buf, child.dataStart, child.dataEnd);
        else if (child.id === ID.DiscardPadding) discardPaddingNs = readSignedInt(buf, child);
      });
      if (block) blocks.push({ ...(block as { track: number; frames: Buffer[] }), discardPaddingNs });
    }
    pos = el.dataEnd;
  }
  return cluster.dataEnd;
}

function readSignedInt(buf: Buffer, el: EbmlElement): number {
  const length = el.dataEnd - el.dataStart;
  if (length === 0) return 0;
  if (length > 6) throw new Error('integer element too long');
  return buf.readIntBE(el.dataStart, length);
}

/** A (Simple)Block's track number and frames, with Xiph, fixed-size and EBML lacing. */
function readBlock(buf: Buffer, start: number, end: number): { track: number; frames: Buffer[] } {
  const track = readSize(buf, start, end);
  if (!track || track.size === UNKNOWN_SIZE) throw new Error('Block with an unreadable track number');
  let p = start + track.length + 2;
  if (p >= end) throw new Error('Block cut off');
  const flags = buf[p++];
  const lacing = (flags >> 1) & 3;
  if (lacing === 0) return { track: track.size, frames: [buf.subarray(p, end)] };
  if (p >= end) throw new Error('laced Block cut off');
  const count = buf[p++] + 1;
  const sizes: number[] = [];
  if (lacing === 1) {
    for (let i = 0; i < count - 1; i++) {
      let size = 0;
      let b: number;
      do {
        if (p >= end) throw new Error('Xiph lacing cut off');
        b = buf[p++];
        size += b;
      } while (b === 255);
      sizes.push(size);
    }
  } else if (lacing === 3) {
    const first = readSize(buf, p, end);
    if (!first || first.size === UNKNOWN_SIZE) throw new Error('EBML lacing unreadable');
    p += first.length;
    sizes.push(first.size);
    for (let i = 1; i < count - 1; i++) {
      const raw = readSize(buf, p, end);
      if (!raw || raw.size === UNKNOWN_SIZE) throw new Error('EBML lacing unreadable');
      p += raw.length;
      const diff = raw.size - (2 ** (7 * raw.length - 1) - 1);
      sizes.push(sizes[i - 1] + diff);
    }
  } else {
    const total = end - p;
    if (total % count !== 0) throw new Error('fixed-size lacing does not divide the Block');
    for (let i = 0; i < count - 1; i++) sizes.push(total / count);
  }
  const used = sizes.reduce((a, b) => a + b, 0);
  if (sizes.some((s) => s < 0) || p + used > end) throw new Error('lace sizes run past the Block');
  sizes.push(end - p - used);
  const frames: Buffer[] = [];
  for (const size of sizes) {
    frames.push(buf.subarray(p, p + size));
    p += size;
  }
  return { track: track.size, frames };
}

function opusTags(): Buffer {
  const vendor = Buffer.from('Disparo', 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length);
  return tags;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04C11DB7, initial 0, not reflected, no final XOR. */
export function oggCrc32(data: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < data.length; i++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ data[i]) & 0xff]) >>> 0;
  return crc >>> 0;
}

class OggWriter {
  readonly pages: Buffer[] = [];
  private sequence = 0;
  constructor(private readonly serial: number) {}

  /** One page holding whole packets; `granule` is the position after its last packet. */
  page(packets: Buffer[], granule: bigint, flags: number): void {
    const lacing: number[] = [];
    for (const packet of packets) {
      let left = packet.length;
      while (left >= 255) {
        lacing.push(255);
        left -= 255;
      }
      lacing.push(left);
    }
    if (lacing.length > 255) throw new Error('too many segments for one Ogg page');
    const header = Buffer.alloc(27 + lacing.length);
    header.write('OggS', 0, 'latin1');
    header[4] = 0;
    header[5] = flags;
    header.writeBigInt64LE(granule, 6);
    header.writeUInt32LE(this.serial, 14);
    header.writeUInt32LE(this.sequence++, 18);
    header.writeUInt32LE(0, 22);
    header[26] = lacing.length;
    for (let i = 0; i < lacing.length; i++) header[27 + i] = lacing[i];
    const page = Buffer.concat([header, ...packets]);
    page.writeUInt32LE(oggCrc32(page), 22);
    this.pages.push(page);
  }
}
