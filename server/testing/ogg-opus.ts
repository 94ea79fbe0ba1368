import { oggCrc32 } from '../media/webm-to-ogg';

/** One Ogg page of whole packets (RFC 3533), its CRC filled in. */
function page(packets: Buffer[], granule: bigint, flags: number, sequence: number): Buffer {
  const lacing: number[] = [];
  for (const p of packets) {
    let left = p.length;
    for (; left >= 255; left -= 255) lacing.push(255);
    lacing.push(left);
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x5eed, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  lacing.forEach((n, i) => {
    header[27 + i] = n;
  });
  const whole = Buffer.concat([header, ...packets]);
  whole.writeUInt32LE(oggCrc32(whole), 22);
  return whole;
}

/**
 * A small Ogg Opus file (RFC 7845) of `seconds` of silence-like 20 ms packets: what WhatsApp plays
 * as a voice note, for tests that need one.
 */
export function oggOpusFile(seconds: number): Buffer {
  const preSkip = 312;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(48_000, 12);
  const tags = Buffer.concat([
    Buffer.from('OpusTags', 'latin1'),
    Buffer.from([4, 0, 0, 0]),
    Buffer.from('test'),
    Buffer.alloc(4),
  ]);
  // TOC 0xf8: CELT-only fullband, 20 ms, one frame per packet (960 samples).
  const packets = Array.from({ length: seconds * 50 }, () => Buffer.from([0xf8, 0xff, 0xfe]));
  const pages = [page([head], 0n, 0x02, 0), page([tags], 0n, 0, 1)];
  for (let at = 0, seq = 2; at < packets.length; at += 100, seq++) {
    const slice = packets.slice(at, at + 100);
    const last = at + 100 >= packets.length;
    pages.push(page(slice, BigInt(preSkip + (at + slice.length) * 960), last ? 0x04 : 0, seq));
  }
  return Buffer.concat(pages);
}
