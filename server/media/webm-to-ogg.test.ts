import { describe, expect, it } from 'vitest';
import { oggCrc32, oggOpusDuration, opusPacketSamples, webmOpusToOgg } from './webm-to-ogg';

// A hand-written EBML writer: IDs are written as their bytes, sizes as 8-byte vints or unknown.
function id(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0) {
    bytes.unshift(n & 0xff);
    n = Math.floor(n / 256);
  }
  return Buffer.from(bytes);
}
function size(n: number): Buffer {
  // 1-byte vint when it fits, else 8 bytes
  if (n < 127) return Buffer.from([0x80 | n]);
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n) | (1n << 56n));
  return b;
}
const UNKNOWN = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
function el(elementId: number, ...children: Buffer[]): Buffer {
  const data = Buffer.concat(children);
  return Buffer.concat([id(elementId), size(data.length), data]);
}
function unknownEl(elementId: number, ...children: Buffer[]): Buffer {
  return Buffer.concat([id(elementId), UNKNOWN, ...children]);
}
function uint(elementId: number, value: number, bytes = 1): Buffer {
  const b = Buffer.alloc(bytes);
  b.writeUIntBE(value, 0, bytes);
  return el(elementId, b);
}
function str(elementId: number, value: string): Buffer {
  return el(elementId, Buffer.from(value, 'latin1'));
}
function simpleBlock(track: number, timecode: number, frame: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header[0] = 0x80 | track;
  header.writeInt16BE(timecode, 1);
  header[3] = 0x80; // keyframe, no lacing
  return el(0xa3, header, frame);
}

function opusHead(preSkip: number, channels = 1): Buffer {
  const h = Buffer.alloc(19);
  h.write('OpusHead', 0, 'latin1');
  h[8] = 1;
  h[9] = channels;
  h.writeUInt16LE(preSkip, 10);
  h.writeUInt32LE(48000, 12);
  return h;
}

function packet(toc: number, length: number, fill: number, second?: number): Buffer {
  const p = Buffer.alloc(length, fill);
  p[0] = toc;
  if (second !== undefined) p[1] = second;
  return p;
}

function webm(frames: Buffer[], preSkip = 312, extraTrack?: Buffer): Buffer {
  const header = el(0x1a45dfa3, uint(0x4286, 1), uint(0x42f7, 1), str(0x4282, 'webm'), uint(0x4287, 4));
  const info = el(0x1549a966, uint(0x2ad7b1, 1_000_000, 3), str(0x4d80, 'Chrome'));
  const track = el(
    0xae,
    uint(0xd7, 1),
    uint(0x73c5, 12345, 2),
    uint(0x83, 2),
    str(0x86, 'A_OPUS'),
    el(0x63a2, opusHead(preSkip)),
    el(0xe1, el(0xb5, Buffer.from([0x47, 0x3b, 0x80, 0x00])), uint(0x9f, 1)),
  );
  const tracks = el(0x1654ae6b, track, ...(extraTrack ? [extraTrack] : []));
  const half = Math.ceil(frames.length / 2);
  const cluster1 = unknownEl(
    0x1f43b675,
    uint(0xe7, 0),
    ...frames.slice(0, half).map((f, i) => simpleBlock(1, i * 20, f)),
  );
  const cluster2 = unknownEl(
    0x1f43b675,
    uint(0xe7, 1000, 2),
    ...frames.slice(half).map((f, i) => simpleBlock(1, i * 20, f)),
  );
  return Buffer.concat([header, unknownEl(0x18538067, info, tracks, cluster1, cluster2)]);
}

type Page = { flags: number; granule: bigint; serial: number; sequence: number; packets: Buffer[]; crcOk: boolean };

function parseOgg(ogg: Buffer): Page[] {
  const pages: Page[] = [];
  let pos = 0;
  let pending: Buffer[] = [];
  while (pos < ogg.length) {
    expect(ogg.toString('latin1', pos, pos + 4)).toBe('OggS');
    const nseg = ogg[pos + 26];
    const lacing = [...ogg.subarray(pos + 27, pos + 27 + nseg)];
    const dataStart = pos + 27 + nseg;
    const total = lacing.reduce((a, b) => a + b, 0);
    const page = Buffer.from(ogg.subarray(pos, dataStart + total));
    const crc = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    const packets: Buffer[] = [];
    let p = dataStart;
    for (const l of lacing) {
      pending.push(ogg.subarray(p, p + l));
      p += l;
      if (l < 255) {
        packets.push(Buffer.concat(pending));
        pending = [];
      }
    }
    pages.push({
      flags: ogg[pos + 5],
      granule: ogg.readBigInt64LE(pos + 6),
      serial: ogg.readUInt32LE(pos + 14),
      sequence: ogg.readUInt32LE(pos + 18),
      packets,
      crcOk: oggCrc32(page) === crc,
    });
    pos = dataStart + total;
  }
  return pages;
}

describe('oggCrc32', () => {
  it('is CRC-32 with polynomial 0x04C11DB7, initial 0, unreflected, no final XOR', () => {
    // CRC-32/CKSUM's check value 0x765E7680 has a final XOR of 0xFFFFFFFF; Ogg's has none.
    expect(oggCrc32(Buffer.from('123456789'))).toBe((0x765e7680 ^ 0xffffffff) >>> 0);
  });
});

describe('opusPacketSamples', () => {
  it('reads the frame size and count from the TOC byte (RFC 6716 §3.1)', () => {
    expect(opusPacketSamples(Buffer.from([(1 << 3) | 0]))).toBe(960); // SILK NB 20 ms
    expect(opusPacketSamples(Buffer.from([(3 << 3) | 0]))).toBe(2880); // SILK 60 ms
    expect(opusPacketSamples(Buffer.from([(13 << 3) | 1]))).toBe(1920); // hybrid 20 ms x2
    expect(opusPacketSamples(Buffer.from([(16 << 3) | 2]))).toBe(240); // CELT 2.5 ms x2
    expect(opusPacketSamples(Buffer.from([(31 << 3) | 3, 3]))).toBe(2880); // CELT 20 ms x3
    expect(() => opusPacketSamples(Buffer.from([(31 << 3) | 3, 7]))).toThrow(/120 ms/);
    expect(() => opusPacketSamples(Buffer.alloc(0))).toThrow(/empty/);
  });
});

describe('webmOpusToOgg', () => {
  // 20 ms CELT FB mono (config 31), 10 ms hybrid (config 12), 2 x 20 ms SILK WB (config 9, code 1),
  // 3 x 2.5 ms CELT (config 16, code 3), and a 300-byte packet (lacing 255 + 45).
  const frames = [
    packet(31 << 3, 40, 0xa1),
    packet(12 << 3, 30, 0xa2),
    packet((9 << 3) | 1, 50, 0xa3),
    packet((16 << 3) | 3, 20, 0xa4, 3),
    packet(31 << 3, 300, 0xa5),
    ...Array.from({ length: 300 }, (_, i) => packet(31 << 3, 60, i & 0xff)),
  ];
  const durations = frames.map((f) => opusPacketSamples(f));
  const sum = durations.reduce((a, b) => a + b, 0);

  it('remuxes unknown-size Segment and Clusters into valid Ogg Opus pages', () => {
    const ogg = webmOpusToOgg(webm(frames, 312));
    const pages = parseOgg(ogg);
    expect(pages.length).toBeGreaterThan(3);
    for (const [i, page] of pages.entries()) {
      expect(page.crcOk).toBe(true);
      expect(page.sequence).toBe(i);
      expect(page.serial).toBe(pages[0].serial);
    }
    expect(pages[0].flags).toBe(0x02);
    expect(pages[0].packets).toHaveLength(1);
    expect(pages[0].packets[0].toString('latin1', 0, 8)).toBe('OpusHead');
    expect(pages[0].packets[0].readUInt16LE(10)).toBe(312);
    expect(pages[0].granule).toBe(0n);
    expect(pages[1].packets).toHaveLength(1);
    expect(pages[1].packets[0].toString('latin1', 0, 8)).toBe('OpusTags');
    expect(pages[1].granule).toBe(0n);

    const audio = pages.slice(2);
    expect(audio.flatMap((p) => p.packets)).toEqual(frames);
    for (const page of audio.slice(0, -1)) expect(page.flags & 0x04).toBe(0);
    expect(pages.at(-1)!.flags).toBe(0x04);
    // each page's granule: samples through its last packet (pre-skip samples included, RFC 7845 §4)
    let seen = 0;
    for (const page of audio) {
      for (let i = 0; i < page.packets.length; i++) seen++;
      expect(page.granule).toBe(BigInt(durations.slice(0, seen).reduce((a, b) => a + b, 0)));
    }
    expect(pages.at(-1)!.granule).toBe(BigInt(sum));
    expect(oggOpusDuration(ogg)).toBeCloseTo((sum - 312) / 48000, 9);
  });

  it('reads laced Blocks in BlockGroups and trims the last granule by DiscardPadding', () => {
    const a = packet(31 << 3, 10, 1);
    const b = packet(31 << 3, 300, 2);
    const c = packet(30 << 3, 20, 3); // 10 ms
    const d = packet(31 << 3, 7, 4);
    const blockHeader = (lacing: number) => Buffer.from([0x81, 0, 0, lacing]);
    // Xiph lacing: count-1, then sizes of all frames but the last (255 + 45 for 300)
    const xiph = el(0xa1, blockHeader(0x02), Buffer.from([2, 10, 255, 45]), a, b, c);
    // EBML lacing: count-1, first size as a vint, then signed differences (bias 63 for 1 byte)
    const ebmlLaced = el(0xa1, blockHeader(0x06), Buffer.from([1, 0x80 | 7]), d, packet(31 << 3, 7, 5));
    const discard = el(0x75a2, Buffer.from([0x00, 0x98, 0x96, 0x80])); // 10 ms in ns
    const file = Buffer.concat([
      el(0x1a45dfa3, str(0x4282, 'webm')),
      el(
        0x18538067,
        el(0x1654ae6b, el(0xae, uint(0xd7, 1), uint(0x83, 2), str(0x86, 'A_OPUS'), el(0x63a2, opusHead(0)))),
        el(0x1f43b675, uint(0xe7, 0), el(0xa0, xiph), el(0xa0, ebmlLaced, discard)),
      ),
    ]);
    const ogg = webmOpusToOgg(file);
    const pages = parseOgg(ogg);
    expect(pages.slice(2).flatMap((p) => p.packets)).toEqual([a, b, c, d, packet(31 << 3, 7, 5)]);
    expect(pages.at(-1)!.granule).toBe(BigInt(960 * 4 + 480 - 480));
    expect(oggOpusDuration(ogg)).toBeCloseTo(0.08, 9);
  });

  it('refuses what it cannot remux', () => {
    expect(() => webmOpusToOgg(Buffer.from('not a webm at all'))).toThrow(/EBML/);
    expect(() => webmOpusToOgg(webm([]))).toThrow(/no Opus frames/);
    const video = el(0xae, uint(0xd7, 2), uint(0x83, 1), str(0x86, 'V_VP8'));
    expect(() => webmOpusToOgg(webm(frames, 312, video))).toThrow(/video track/);
  });

  it('oggOpusDuration refuses what is not Ogg Opus', () => {
    expect(() => oggOpusDuration(Buffer.from('RIFF0000WAVEfmt '))).toThrow();
  });
});
