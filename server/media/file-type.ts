import { type EbmlElement, ID, readElement, readString, readUint, UNKNOWN_SIZE } from './ebml';

/**
 * What an uploaded file is, decided from its own bytes, never its name (the declared name only
 * tells .csv from .txt and, when the file's directory is not in the head, .doc/.xls/.ppt apart).
 * Accepted are the types and sizes Meta's WhatsApp Cloud API takes; everything else is refused with
 * a sentence for the user.
 *
 * `head` is the file's first bytes — pass HEAD_BYTES (4 MB), or the whole file when it is smaller.
 * For MP4/3GP the `moov` box is checked (H.264 video, AAC audio) when it lies inside the head;
 * a file whose `moov` comes after the head (not "fast start") is accepted on its ftyp brand alone
 * when nothing in the head is wrong. Top-level boxes are walked through the head against
 * `totalSize`: one that runs past the end of the file means the file is cut off, and is refused.
 *
 * Signatures are written here rather than taken from the `file-type` package: the accepted set is
 * small, and the checks that matter (Office ZIP content, text, MP4 codecs, WebM tracks) are not
 * what that package decides anyway.
 */
export type DetectedFile = {
  kind: 'image' | 'document' | 'audio' | 'video' | 'sticker';
  mimeType: string;
  extension: string;
  voiceCapable?: boolean;
};

export const HEAD_BYTES = 4 * 1024 * 1024;

const KB = 1024;
const MB = 1024 * 1024;
export const LIMITS = {
  image: 5 * MB,
  sticker: 500 * KB,
  document: 100 * MB,
  audio: 16 * MB,
  video: 16 * MB,
} as const;

export const NOT_ACCEPTED =
  'Tipo de arquivo não aceito. Envie imagem (JPG, PNG, WebP), documento (PDF, Word, Excel, PowerPoint, TXT, CSV), áudio (OGG, MP3, M4A, AMR) ou vídeo (MP4, 3GP).';
export const VIDEO_CODECS = 'Vídeo deve ser MP4 com H.264 e AAC.';
const TOO_LARGE: Record<DetectedFile['kind'], string> = {
  image: 'Arquivo muito grande: imagens podem ter até 5 MB.',
  sticker: 'Arquivo muito grande: figurinhas podem ter até 500 KB.',
  document: 'Arquivo muito grande: documentos podem ter até 100 MB.',
  audio: 'Arquivo muito grande: áudios podem ter até 16 MB.',
  video: 'Arquivo muito grande: vídeos podem ter até 16 MB.',
};
const STICKER_WEBP = 'Figurinhas devem ser imagens WebP.';
const CORRUPT = 'Arquivo incompleto ou corrompido.';
const EMPTY = 'Arquivo vazio.';
const MACROS = 'Documentos com macros não são aceitos.';

type Refused = { refused: string };

export async function detectFile(
  head: Buffer,
  opts: { declaredName?: string; totalSize: number; asSticker?: boolean },
): Promise<DetectedFile | Refused> {
  if (opts.totalSize <= 0 || head.length === 0) return { refused: EMPTY };
  const whole = head.length >= opts.totalSize;
  const buf = whole ? head.subarray(0, opts.totalSize) : head;
  const ext = declaredExtension(opts.declaredName);
  const found = sniff(buf, { whole, totalSize: opts.totalSize, ext });
  if ('refused' in found) return found;

  if (opts.asSticker) {
    if (found.mimeType !== 'image/webp') return { refused: STICKER_WEBP };
    const sticker: DetectedFile = { kind: 'sticker', mimeType: 'image/webp', extension: 'webp' };
    return opts.totalSize > LIMITS.sticker ? { refused: TOO_LARGE.sticker } : sticker;
  }
  if (opts.totalSize > LIMITS[found.kind]) return { refused: TOO_LARGE[found.kind] };
  return found;
}

type Ctx = { whole: boolean; totalSize: number; ext: string };

function sniff(b: Buffer, ctx: Ctx): DetectedFile | Refused {
  const at = (offset: number, ascii: string) =>
    b.length >= offset + ascii.length && b.toString('latin1', offset, offset + ascii.length) === ascii;

  // images
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return image('image/jpeg', 'jpg');
  if (at(0, '\x89PNG\r\n\x1a\n')) return image('image/png', 'png');
  if (at(0, 'RIFF') && at(8, 'WEBP')) return image('image/webp', 'webp');

  // documents
  if (at(0, '%PDF-')) return doc('application/pdf', 'pdf');
  if (at(0, '\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1')) return ole2(b, ctx);
  if (at(0, 'PK\x03\x04')) return officeZip(b, ctx);

  // audio
  if (at(0, '#!AMR\n')) return audio('audio/amr', 'amr');
  if (at(0, 'OggS')) return ogg(b);
  if (at(0, 'ID3')) return audio('audio/mpeg', 'mp3');
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xf6) === 0xf0) return audio('audio/aac', 'aac'); // ADTS FFF1/FFF9
  if (isMp3Frame(b, ctx)) return audio('audio/mpeg', 'mp3');

  // video (and M4A)
  if (at(4, 'ftyp')) return isoMedia(b, ctx);
  if (b.length >= 4 && b.readUInt32BE(0) === ID.EBML) return webm(b);

  return text(b, ctx);
}

function image(mimeType: string, extension: string): DetectedFile {
  return { kind: 'image', mimeType, extension };
}
function doc(mimeType: string, extension: string): DetectedFile {
  return { kind: 'document', mimeType, extension };
}
function audio(mimeType: string, extension: string, voiceCapable?: boolean): DetectedFile {
  return voiceCapable ? { kind: 'audio', mimeType, extension, voiceCapable } : { kind: 'audio', mimeType, extension };
}

function declaredExtension(name: string | undefined): string {
  if (!name) return '';
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

// --- OLE2 compound files (.doc, .xls, .ppt) ----------------------------------------------------

const OLE2_TYPES = {
  doc: { mime: 'application/msword', streams: ['WordDocument'] },
  xls: { mime: 'application/vnd.ms-excel', streams: ['Workbook', 'Book'] },
  ppt: { mime: 'application/vnd.ms-powerpoint', streams: ['PowerPoint Document'] },
} as const;

/**
 * A compound file is Word, Excel or PowerPoint by the stream its directory names (WordDocument,
 * Workbook/Book, PowerPoint Document). When the directory lies beyond the head, the declared
 * extension (.doc/.xls/.ppt) decides, and without one it is taken as Word (application/msword).
 * A compound file whose directory is in the head and names none of them (an MSI installer, an
 * Outlook .msg, ...) is refused.
 */
function ole2(b: Buffer, ctx: Ctx): DetectedFile | Refused {
  const found = (Object.keys(OLE2_TYPES) as (keyof typeof OLE2_TYPES)[]).filter((k) =>
    OLE2_TYPES[k].streams.some((s) => b.includes(Buffer.from(`${s}\0`, 'utf16le'))),
  );
  if (found.length > 0) {
    const pick = found.includes(ctx.ext as keyof typeof OLE2_TYPES) ? (ctx.ext as keyof typeof OLE2_TYPES) : found[0];
    return doc(OLE2_TYPES[pick].mime, pick);
  }
  if (b.length < 512) return { refused: NOT_ACCEPTED };
  const sectorShift = b.readUInt16LE(30);
  const firstDirSector = b.readUInt32LE(48);
  const dirOffset = (firstDirSector + 1) * 2 ** sectorShift;
  if (sectorShift > 16 || dirOffset + 128 <= b.length || ctx.whole) return { refused: NOT_ACCEPTED };
  const pick = ctx.ext in OLE2_TYPES ? (ctx.ext as keyof typeof OLE2_TYPES) : 'doc';
  return doc(OLE2_TYPES[pick].mime, pick);
}

// --- ZIP: .docx, .xlsx, .pptx --------------------------------------------------------------------

const OOXML = [
  { prefix: 'word/', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' },
  { prefix: 'xl/', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx' },
  { prefix: 'ppt/', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ext: 'pptx' },
] as const;

/**
 * A ZIP is an Office document when its entries include word/, xl/ or ppt/. Names come from the
 * central directory when the whole file is in the head, else from the local file headers found in
 * the head. Macro-enabled content (vbaProject.bin) is refused, as is any other ZIP.
 */
function officeZip(b: Buffer, ctx: Ctx): DetectedFile | Refused {
  const names = ctx.whole ? (centralDirectoryNames(b) ?? localHeaderNames(b)) : localHeaderNames(b);
  if (names.some((n) => n.toLowerCase().endsWith('vbaproject.bin'))) return { refused: MACROS };
  const hasContentTypes = names.includes('[Content_Types].xml');
  for (const type of OOXML) {
    if (names.some((n) => n.startsWith(type.prefix)) && (hasContentTypes || !ctx.whole))
      return doc(type.mime, type.ext);
  }
  return { refused: NOT_ACCEPTED };
}

function localHeaderNames(b: Buffer): string[] {
  const names: string[] = [];
  let pos = 0;
  while (names.length < 10_000) {
    pos = b.indexOf('PK\x03\x04', pos, 'latin1');
    if (pos < 0 || pos + 30 > b.length) break;
    const nameLength = b.readUInt16LE(pos + 26);
    const extraLength = b.readUInt16LE(pos + 28);
    if (pos + 30 + nameLength > b.length) break;
    names.push(b.toString('utf8', pos + 30, pos + 30 + nameLength));
    const flags = b.readUInt16LE(pos + 6);
    const compressed = b.readUInt32LE(pos + 18);
    // with a data descriptor (flag bit 3) the size is not known here: look for the next header
    const next =
      flags & 0x08 || compressed === 0xffffffff
        ? pos + 30 + nameLength
        : pos + 30 + nameLength + extraLength + compressed;
    pos = Math.max(next, pos + 4);
  }
  return names;
}

function centralDirectoryNames(b: Buffer): string[] | null {
  const from = Math.max(0, b.length - 22 - 0xffff);
  const eocd = b.lastIndexOf('PK\x05\x06', b.length - 22, 'latin1');
  if (eocd < from || eocd < 0) return null;
  const count = b.readUInt16LE(eocd + 10);
  let pos = b.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (pos + 46 > b.length || b.readUInt32LE(pos) !== 0x02014b50) return null;
    const nameLength = b.readUInt16LE(pos + 28);
    const extraLength = b.readUInt16LE(pos + 30);
    const commentLength = b.readUInt16LE(pos + 32);
    if (pos + 46 + nameLength > b.length) return null;
    names.push(b.toString('utf8', pos + 46, pos + 46 + nameLength));
    pos += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

// --- audio ---------------------------------------------------------------------------------------

function ogg(b: Buffer): DetectedFile | Refused {
  if (b.length < 27) return { refused: CORRUPT };
  const packet = 27 + b[26];
  if (b.length >= packet + 8 && b.toString('latin1', packet, packet + 8) === 'OpusHead') {
    return audio('audio/ogg', 'ogg', true);
  }
  if (b.length >= packet + 7 && b[packet] === 1 && b.toString('latin1', packet + 1, packet + 7) === 'vorbis') {
    return audio('audio/ogg', 'ogg');
  }
  return { refused: NOT_ACCEPTED };
}

const MP3_BITRATES = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as const;

/** An MPEG audio Layer III frame header at `pos`: its length, or 0. */
function mp3FrameLength(b: Buffer, pos: number): number {
  if (pos + 4 > b.length || b[pos] !== 0xff || (b[pos + 1] & 0xe0) !== 0xe0) return 0;
  const version = (b[pos + 1] >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (b[pos + 1] >> 1) & 3; // 1: Layer III
  const bitrateIndex = b[pos + 2] >> 4;
  const rateIndex = (b[pos + 2] >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return 0;
  const bitrate = (version === 3 ? MP3_BITRATES.v1 : MP3_BITRATES.v2)[bitrateIndex] * 1000;
  const rate = MP3_RATES[version as 3 | 2 | 0][rateIndex];
  const padding = (b[pos + 2] >> 1) & 1;
  return Math.floor(((version === 3 ? 144 : 72) * bitrate) / rate) + padding;
}

/** A Layer III frame at the start, followed by another one when the head holds it. */
function isMp3Frame(b: Buffer, ctx: Ctx): boolean {
  const length = mp3FrameLength(b, 0);
  if (length === 0) return false;
  if (length >= ctx.totalSize || length + 4 > b.length) return length <= ctx.totalSize;
  return mp3FrameLength(b, length) > 0;
}

// --- ISO base media (MP4, 3GP, M4A) ---------------------------------------------------------------

const VIDEO_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'mmp4',
  'M4V ',
  'MSNV',
  'dash',
  '3gp4',
  '3gp5',
  '3gp6',
  '3gp7',
  '3gp8',
  '3gp9',
  '3gg6',
  '3gs7',
  '3ge6',
  '3ge7',
  '3g2a',
  '3g2b',
  '3g2c',
]);
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ']);
/** Image and QuickTime brands that share the box format: never video here. */
const OTHER_BRANDS = new Set([
  'qt  ',
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'hevx',
  'mif1',
  'msf1',
  'avif',
  'avis',
  'crx ',
]);
const AAC_OBJECT_TYPES = new Set([0x40, 0x66, 0x67, 0x68]);

function isoMedia(b: Buffer, ctx: Ctx): DetectedFile | Refused {
  const ftypSize = b.readUInt32BE(0);
  if (ftypSize < 16 || ftypSize > b.length) return { refused: CORRUPT };
  const major = b.toString('latin1', 8, 12);
  const brands = [major];
  for (let p = 16; p + 4 <= ftypSize; p += 4) brands.push(b.toString('latin1', p, p + 4));
  if (OTHER_BRANDS.has(major)) return { refused: NOT_ACCEPTED };
  const isAudio = AUDIO_BRANDS.has(major);
  const is3gp = major.startsWith('3g');
  if (!isAudio && !brands.some((x) => VIDEO_BRANDS.has(x) || AUDIO_BRANDS.has(x))) return { refused: NOT_ACCEPTED };

  // walk the top-level boxes the head holds
  let pos = 0;
  let moov: { start: number; end: number } | null = null;
  while (pos + 8 <= b.length && pos < ctx.totalSize) {
    let size = b.readUInt32BE(pos);
    let header = 8;
    if (size === 1) {
      if (pos + 16 > b.length) break;
      const large = b.readBigUInt64BE(pos + 8);
      if (large > BigInt(Number.MAX_SAFE_INTEGER)) return { refused: CORRUPT };
      size = Number(large);
      header = 16;
    } else if (size === 0) {
      size = ctx.totalSize - pos;
    }
    if (size < header) return { refused: CORRUPT };
    if (pos + size > ctx.totalSize) return { refused: CORRUPT };
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (type === 'moov' && pos + size <= b.length) moov = { start: pos + header, end: pos + size };
    pos += size;
  }
  if (!moov) {
    if (ctx.whole) return { refused: CORRUPT };
    return isAudio ? audio('audio/mp4', 'm4a') : videoOf(is3gp);
  }

  const tracks = readTracks(b, moov.start, moov.end);
  const video = tracks.filter((t) => t.handler === 'vide');
  const sound = tracks.filter((t) => t.handler === 'soun');
  const aacOk = sound.every((t) => t.entry === 'mp4a' && t.aac !== false);
  if (video.length === 0) {
    if (sound.length > 0 && aacOk) return audio('audio/mp4', 'm4a');
    return { refused: isAudio ? NOT_ACCEPTED : VIDEO_CODECS };
  }
  if (isAudio) return { refused: NOT_ACCEPTED };
  if (!video.every((t) => t.entry === 'avc1') || !aacOk) return { refused: VIDEO_CODECS };
  return videoOf(is3gp);
}

function videoOf(is3gp: boolean): DetectedFile {
  return is3gp
    ? { kind: 'video', mimeType: 'video/3gpp', extension: '3gp' }
    : { kind: 'video', mimeType: 'video/mp4', extension: 'mp4' };
}

type Box = { type: string; start: number; end: number };

function boxes(b: Buffer, start: number, end: number): Box[] {
  const out: Box[] = [];
  let pos = start;
  while (pos + 8 <= end && out.length < 10_000) {
    let size = b.readUInt32BE(pos);
    let header = 8;
    if (size === 1) {
      if (pos + 16 > end) break;
      size = Number(b.readBigUInt64BE(pos + 8));
      header = 16;
    } else if (size === 0) size = end - pos;
    if (size < header || pos + size > end) break;
    out.push({ type: b.toString('latin1', pos + 4, pos + 8), start: pos + header, end: pos + size });
    pos += size;
  }
  return out;
}

function child(b: Buffer, parent: Box | undefined, type: string): Box | undefined {
  return parent ? boxes(b, parent.start, parent.end).find((x) => x.type === type) : undefined;
}

/** Each track's handler (vide, soun, ...) and first sample entry (avc1, mp4a, hvc1, ...). */
function readTracks(b: Buffer, start: number, end: number): { handler: string; entry: string; aac?: boolean }[] {
  return boxes(b, start, end)
    .filter((x) => x.type === 'trak')
    .map((trak) => {
      const mdia = child(b, trak, 'mdia');
      const hdlr = child(b, mdia, 'hdlr');
      const handler = hdlr && hdlr.start + 12 <= hdlr.end ? b.toString('latin1', hdlr.start + 8, hdlr.start + 12) : '';
      const stsd = child(b, child(b, child(b, mdia, 'minf'), 'stbl'), 'stsd');
      if (!stsd || stsd.start + 16 > stsd.end) return { handler, entry: '' };
      const entry = boxes(b, stsd.start + 8, stsd.end)[0];
      if (!entry) return { handler, entry: '' };
      if (entry.type !== 'mp4a') return { handler, entry: entry.type };
      // AudioSampleEntry: 8 bytes SampleEntry + 20 bytes of audio fields (v0), then child boxes
      const version = entry.start + 10 <= entry.end ? b.readUInt16BE(entry.start + 8) : 0;
      const childStart = entry.start + 28 + (version === 1 ? 16 : version === 2 ? 36 : 0);
      const esds = boxes(b, childStart, entry.end).find((x) => x.type === 'esds');
      const oti = esds ? esdsObjectType(b, esds) : null;
      return { handler, entry: 'mp4a', aac: oti === null ? undefined : AAC_OBJECT_TYPES.has(oti) };
    });
}

/** The DecoderConfigDescriptor's objectTypeIndication in an esds box (0x40: MPEG-4 AAC). */
function esdsObjectType(b: Buffer, esds: Box): number | null {
  let p = esds.start + 4;
  const descriptorLength = () => {
    let length = 0;
    for (let i = 0; i < 4 && p < esds.end; i++) {
      const byte = b[p++];
      length = (length << 7) | (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    return length;
  };
  if (p >= esds.end || b[p++] !== 0x03) return null;
  descriptorLength();
  p += 2; // ES_ID
  if (p >= esds.end) return null;
  const flags = b[p++];
  if (flags & 0x80) p += 2;
  if (flags & 0x40 && p < esds.end) p += 1 + b[p];
  if (flags & 0x20) p += 2;
  if (p >= esds.end || b[p++] !== 0x04) return null;
  descriptorLength();
  return p < esds.end ? b[p] : null;
}

// --- WebM (the browser's voice recording) ---------------------------------------------------------

/** WebM with Opus audio only: the browser's recording, to be remuxed to Ogg (webm-to-ogg.ts). */
function webm(b: Buffer): DetectedFile | Refused {
  const header = readElement(b, 0);
  if (!header || header.id !== ID.EBML || header.size === UNKNOWN_SIZE) return { refused: NOT_ACCEPTED };
  let docType = '';
  for (const el of children(b, header)) if (el.id === ID.DocType) docType = readString(b, el);
  if (docType !== 'webm') return { refused: NOT_ACCEPTED };
  const segment = readElement(b, header.dataEnd);
  if (!segment || segment.id !== ID.Segment) return { refused: NOT_ACCEPTED };
  let pos = segment.dataStart;
  while (pos < segment.dataEnd) {
    const el = readElement(b, pos, segment.dataEnd);
    if (!el || el.id === ID.Cluster) break;
    if (el.id === ID.Tracks) {
      const codecs: { type: number; codec: string }[] = [];
      for (const entry of children(b, el)) {
        if (entry.id !== ID.TrackEntry) continue;
        const track = { type: 0, codec: '' };
        for (const f of children(b, entry)) {
          if (f.id === ID.TrackType) track.type = readUint(b, f);
          else if (f.id === ID.CodecID) track.codec = readString(b, f);
        }
        codecs.push(track);
      }
      const ok = codecs.length > 0 && codecs.every((t) => t.type === 2 && t.codec === 'A_OPUS');
      return ok ? audio('audio/webm', 'webm', true) : { refused: NOT_ACCEPTED };
    }
    if (el.size === UNKNOWN_SIZE) break;
    pos = el.dataEnd;
  }
  return { refused: NOT_ACCEPTED };
}

function children(b: Buffer, parent: EbmlElement): EbmlElement[] {
  const out: EbmlElement[] = [];
  let pos = parent.dataStart;
  while (pos < parent.dataEnd && out.length < 10_000) {
    const el = readElement(b, pos, parent.dataEnd);
    if (!el || el.size === UNKNOWN_SIZE) break;
    out.push(el);
    pos = el.dataEnd;
  }
  return out;
}

// --- text ----------------------------------------------------------------------------------------

const MARKUP = /<(?:!doctype|html|head|body|script|svg|iframe|object|embed|\?xml)\b/i;

/**
 * Plain text or CSV: valid UTF-8 (a character cut at the end of the head is forgiven), no NUL or
 * other C0 control but tab, LF, FF and CR, no DEL; markup (HTML, SVG, XML) and shebang scripts are
 * refused. CSV when declared .csv, else text/plain.
 */
function text(b: Buffer, ctx: Ctx): DetectedFile | Refused {
  let bytes = b;
  if (!ctx.whole) {
    // drop a UTF-8 sequence cut off by the end of the head
    let cut = bytes.length;
    for (let i = 1; i <= 3 && cut - i >= 0; i++) {
      const byte = bytes[cut - i];
      if ((byte & 0xc0) === 0x80) continue;
      if (byte >= 0xc0) {
        const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
        if (i < need) cut -= i;
      }
      break;
    }
    bytes = bytes.subarray(0, cut);
  }
  for (const byte of bytes) {
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) || byte === 0x7f) {
      return { refused: NOT_ACCEPTED };
    }
  }
  let s: string;
  try {
    s = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { refused: NOT_ACCEPTED };
  }
  const start = s.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('#!') || start.startsWith('<') || MARKUP.test(s.slice(0, 4096)))
    return { refused: NOT_ACCEPTED };
  return ctx.ext === 'csv' ? doc('text/csv', 'csv') : doc('text/plain', 'txt');
}
