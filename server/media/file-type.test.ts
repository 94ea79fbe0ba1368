import { describe, expect, it } from 'vitest';
import { type DetectedFile, detectFile, HEAD_BYTES, NOT_ACCEPTED, VIDEO_CODECS } from './file-type';

const MB = 1024 * 1024;

async function detect(bytes: Buffer, opts: { declaredName?: string; totalSize?: number; asSticker?: boolean } = {}) {
  return detectFile(bytes.subarray(0, HEAD_BYTES), { totalSize: bytes.length, ...opts });
}
function accepted(r: DetectedFile | { refused: string }): DetectedFile {
  if ('refused' in r) throw new Error(`refused: ${r.refused}`);
  return r;
}

// --- sample builders -----------------------------------------------------------------------------

const jpeg = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.alloc(64),
]);
const png = Buffer.concat([
  Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
  Buffer.from('0000000dIHDR', 'hex'),
  Buffer.alloc(40),
]);
function webp(bodyLength = 64): Buffer {
  const b = Buffer.alloc(12 + bodyLength);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(4 + bodyLength, 4);
  b.write('WEBPVP8 ', 8, 'latin1');
  return b;
}
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
/** A stored (uncompressed) ZIP with local headers, central directory and end record. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
const CT = '<?xml version="1.0"?><Types/>';

function ole2(streamName: string | null): Buffer {
  const b = Buffer.alloc(1536);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(b);
  b.writeUInt16LE(0x3e, 24);
  b.writeUInt16LE(3, 26);
  b.writeUInt16LE(0xfffe, 28);
  b.writeUInt16LE(9, 30); // 512-byte sectors
  b.writeUInt32LE(1, 48); // directory in sector 1 (offset 1024)
  Buffer.from('Root Entry\0', 'utf16le').copy(b, 1024);
  if (streamName) Buffer.from(`${streamName}\0`, 'utf16le').copy(b, 1024 + 128);
  return b;
}

function oggPage(packet: Buffer): Buffer {
  const h = Buffer.alloc(28);
  h.write('OggS', 0, 'latin1');
  h[5] = 2;
  h[26] = 1;
  h[27] = packet.length;
  return Buffer.concat([h, packet]);
}
const opusHead = Buffer.concat([Buffer.from('OpusHead'), Buffer.from([1, 1, 0x38, 1, 0x80, 0xbb, 0, 0, 0, 0, 0])]);
const vorbisId = Buffer.concat([Buffer.from([1]), Buffer.from('vorbis'), Buffer.alloc(23)]);

const id3 = Buffer.concat([
  Buffer.from('ID3'),
  Buffer.from([4, 0, 0, 0, 0, 0, 10]),
  Buffer.alloc(10),
  Buffer.alloc(200),
]);
/** Two MPEG-1 Layer III frames, 128 kbit/s, 44.1 kHz (417 bytes each). */
function mp3Frames(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([frame, frame]);
}

function box(type: string, ...content: Buffer[]): Buffer {
  const data = Buffer.concat(content);
  const h = Buffer.alloc(8);
  h.writeUInt32BE(8 + data.length);
  h.write(type, 4, 'latin1');
  return Buffer.concat([h, data]);
}
function ftyp(major: string, ...compatible: string[]): Buffer {
  return box('ftyp', Buffer.from(major, 'latin1'), Buffer.alloc(4), ...compatible.map((c) => Buffer.from(c, 'latin1')));
}
function trak(handler: string, entry: Buffer): Buffer {
  const hdlr = box('hdlr', Buffer.alloc(8), Buffer.from(handler, 'latin1'), Buffer.alloc(13));
  const stsd = box('stsd', Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), entry);
  return box('trak', box('tkhd', Buffer.alloc(84)), box('mdia', hdlr, box('minf', box('stbl', stsd))));
}
function videoEntry(codec: string): Buffer {
  return box(codec, Buffer.alloc(78), box(codec === 'avc1' ? 'avcC' : 'hvcC', Buffer.alloc(8)));
}
function mp4aEntry(objectType = 0x40): Buffer {
  const esds = box(
    'esds',
    Buffer.alloc(4),
    Buffer.from([0x03, 0x19, 0, 1, 0, 0x04, 0x11, objectType, 0x15]),
    Buffer.alloc(16),
  );
  return box('mp4a', Buffer.alloc(28), esds);
}
function mp4(options: { video?: string; audio?: number | null; major?: string; mdat?: number } = {}): Buffer {
  const tracks = [];
  if (options.video !== '') tracks.push(trak('vide', videoEntry(options.video ?? 'avc1')));
  if (options.audio !== null) tracks.push(trak('soun', mp4aEntry(options.audio ?? 0x40)));
  const moov = box('moov', box('mvhd', Buffer.alloc(100)), ...tracks);
  return Buffer.concat([
    ftyp(options.major ?? 'isom', 'isom', 'iso2', 'avc1', 'mp41'),
    moov,
    box('mdat', Buffer.alloc(options.mdat ?? 256)),
  ]);
}

// --- tests ---------------------------------------------------------------------------------------

describe('detectFile: images', () => {
  it('knows JPEG, PNG and WebP by their bytes, whatever the name', async () => {
    expect(accepted(await detect(jpeg, { declaredName: 'foto.png' }))).toEqual({
      kind: 'image',
      mimeType: 'image/jpeg',
      extension: 'jpg',
    });
    expect(accepted(await detect(png))).toMatchObject({ kind: 'image', mimeType: 'image/png', extension: 'png' });
    expect(accepted(await detect(webp()))).toMatchObject({ kind: 'image', mimeType: 'image/webp' });
  });
  it('takes a WebP up to 500 KB as a sticker', async () => {
    expect(accepted(await detect(webp(), { asSticker: true }))).toEqual({
      kind: 'sticker',
      mimeType: 'image/webp',
      extension: 'webp',
    });
    expect(await detect(webp(), { asSticker: true, totalSize: 600 * 1024 })).toEqual({
      refused: 'Arquivo muito grande: figurinhas podem ter até 500 KB.',
    });
    expect(await detect(png, { asSticker: true })).toEqual({ refused: 'Figurinhas devem ser imagens WebP.' });
  });
  it('refuses an image over 5 MB', async () => {
    expect(await detect(jpeg, { totalSize: 5 * MB + 1 })).toEqual({
      refused: 'Arquivo muito grande: imagens podem ter até 5 MB.',
    });
  });
});

describe('detectFile: documents', () => {
  it('takes a PDF, even one with JavaScript (it is served as a download)', async () => {
    expect(accepted(await detect(pdf))).toEqual({ kind: 'document', mimeType: 'application/pdf', extension: 'pdf' });
  });
  it('tells DOCX, XLSX and PPTX by their zip entries', async () => {
    const docx = zip({ '[Content_Types].xml': CT, 'word/document.xml': '<w:document/>' });
    expect(accepted(await detect(docx, { declaredName: 'x.zip' }))).toMatchObject({
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      extension: 'docx',
    });
    const xlsx = zip({ '[Content_Types].xml': CT, 'xl/workbook.xml': '<workbook/>' });
    expect(accepted(await detect(xlsx))).toMatchObject({ extension: 'xlsx', kind: 'document' });
    const pptx = zip({ '[Content_Types].xml': CT, 'ppt/presentation.xml': '<p/>' });
    expect(accepted(await detect(pptx))).toMatchObject({ extension: 'pptx' });
    // only the head: the local file headers decide
    const big = Buffer.concat([docx, Buffer.alloc(64)]);
    expect(accepted(await detectFile(big.subarray(0, 130), { totalSize: 50 * MB }))).toMatchObject({
      extension: 'docx',
    });
  });
  it('refuses a ZIP without Office content, and macro-enabled documents', async () => {
    expect(await detect(zip({ 'a.txt': 'hello', 'b.exe': 'MZ' }), { declaredName: 'a.docx' })).toEqual({
      refused: NOT_ACCEPTED,
    });
    const docm = zip({ '[Content_Types].xml': CT, 'word/document.xml': '<w/>', 'word/vbaProject.bin': 'x' });
    expect(await detect(docm)).toEqual({ refused: 'Documentos com macros não são aceitos.' });
  });
  it('tells DOC, XLS and PPT by the compound file directory, and refuses other compound files', async () => {
    expect(accepted(await detect(ole2('WordDocument')))).toMatchObject({
      mimeType: 'application/msword',
      extension: 'doc',
    });
    expect(accepted(await detect(ole2('Workbook')))).toMatchObject({
      mimeType: 'application/vnd.ms-excel',
      extension: 'xls',
    });
    expect(accepted(await detect(ole2('PowerPoint Document')))).toMatchObject({ extension: 'ppt' });
    expect(await detect(ole2(null), { declaredName: 'setup.doc' })).toEqual({ refused: NOT_ACCEPTED });
    // directory beyond the head: the declared extension decides, Word without one
    const header = ole2(null).subarray(0, 512);
    expect(accepted(await detectFile(header, { totalSize: 10 * MB, declaredName: 'a.xls' }))).toMatchObject({
      extension: 'xls',
    });
    expect(accepted(await detectFile(header, { totalSize: 10 * MB }))).toMatchObject({ extension: 'doc' });
  });
  it('takes UTF-8 text, as CSV when declared .csv', async () => {
    const csv = Buffer.from('nome;telefone\nJoão;+5511999990000\nMaria;+5521988887777\n');
    expect(accepted(await detect(csv, { declaredName: 'contatos.CSV' }))).toEqual({
      kind: 'document',
      mimeType: 'text/csv',
      extension: 'csv',
    });
    expect(accepted(await detect(Buffer.from('Olá, mundo!\r\n\tçãé')))).toMatchObject({
      mimeType: 'text/plain',
      extension: 'txt',
    });
    // a character cut at the end of the head is fine
    const long = Buffer.from('ação '.repeat(10));
    expect(accepted(await detectFile(long.subarray(0, 2), { totalSize: 1000 }))).toMatchObject({ extension: 'txt' });
  });
  it('refuses binary, invalid UTF-8, markup and scripts', async () => {
    expect(await detect(Buffer.from([0x41, 0x42, 0x00, 0x43]))).toEqual({ refused: NOT_ACCEPTED });
    expect(await detect(Buffer.from([0x41, 0x1b, 0x5b, 0x43]))).toEqual({ refused: NOT_ACCEPTED });
    expect(await detect(Buffer.from([0x41, 0xc3, 0x28]))).toEqual({ refused: NOT_ACCEPTED });
    expect(await detect(Buffer.from('<!DOCTYPE html><script>x</script>'), { declaredName: 'a.txt' })).toEqual({
      refused: NOT_ACCEPTED,
    });
    expect(await detect(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({ refused: NOT_ACCEPTED });
    expect(await detect(Buffer.from('#!/bin/sh\nrm -rf /\n'), { declaredName: 'a.csv' })).toEqual({
      refused: NOT_ACCEPTED,
    });
  });
  it('refuses executables whatever they are named', async () => {
    const mz = Buffer.concat([
      Buffer.from('MZ\x90\0\x03\0\0\0', 'latin1'),
      Buffer.alloc(120),
      Buffer.from('PE\0\0', 'latin1'),
    ]);
    expect(await detect(mz, { declaredName: 'boleto.pdf' })).toEqual({ refused: NOT_ACCEPTED });
    const elf = Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'latin1'), Buffer.alloc(57)]);
    expect(await detect(elf, { declaredName: 'a.txt' })).toEqual({ refused: NOT_ACCEPTED });
    const macho = Buffer.concat([Buffer.from('cffaedfe07000001', 'hex'), Buffer.alloc(24)]);
    expect(await detect(macho)).toEqual({ refused: NOT_ACCEPTED });
  });
  it('refuses a document over 100 MB, and an empty file', async () => {
    expect(await detect(pdf, { totalSize: 100 * MB + 1 })).toEqual({
      refused: 'Arquivo muito grande: documentos podem ter até 100 MB.',
    });
    expect(await detect(Buffer.alloc(0))).toEqual({ refused: 'Arquivo vazio.' });
  });
});

describe('detectFile: audio', () => {
  it('takes Ogg Opus as a voice note, Ogg Vorbis as audio', async () => {
    expect(accepted(await detect(oggPage(opusHead)))).toEqual({
      kind: 'audio',
      mimeType: 'audio/ogg',
      extension: 'ogg',
      voiceCapable: true,
    });
    expect(accepted(await detect(oggPage(vorbisId)))).toEqual({
      kind: 'audio',
      mimeType: 'audio/ogg',
      extension: 'ogg',
    });
    expect(await detect(oggPage(Buffer.from('\x80theora', 'latin1')))).toEqual({ refused: NOT_ACCEPTED });
  });
  it('takes MP3 (ID3 or frame sync), ADTS AAC, AMR and M4A', async () => {
    expect(accepted(await detect(id3))).toMatchObject({ mimeType: 'audio/mpeg', extension: 'mp3' });
    expect(accepted(await detect(mp3Frames()))).toMatchObject({ mimeType: 'audio/mpeg', extension: 'mp3' });
    expect(accepted(await detect(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc, 0, 0])))).toMatchObject({
      mimeType: 'audio/aac',
    });
    expect(accepted(await detect(Buffer.from('#!AMR\n\x3c\x00\x00', 'latin1')))).toEqual({
      kind: 'audio',
      mimeType: 'audio/amr',
      extension: 'amr',
    });
    const m4a = Buffer.concat([ftyp('M4A ', 'M4A ', 'mp42', 'isom'), box('moov', trak('soun', mp4aEntry()))]);
    expect(accepted(await detect(m4a))).toEqual({ kind: 'audio', mimeType: 'audio/mp4', extension: 'm4a' });
  });
  it('refuses audio over 16 MB', async () => {
    expect(await detect(id3, { totalSize: 16 * MB + 1 })).toEqual({
      refused: 'Arquivo muito grande: áudios podem ter até 16 MB.',
    });
  });
});

describe('detectFile: video', () => {
  it('takes MP4 with H.264 and AAC, and 3GP', async () => {
    expect(accepted(await detect(mp4()))).toEqual({ kind: 'video', mimeType: 'video/mp4', extension: 'mp4' });
    expect(accepted(await detect(mp4({ audio: null })))).toMatchObject({ kind: 'video' });
    expect(accepted(await detect(mp4({ major: '3gp4' })))).toEqual({
      kind: 'video',
      mimeType: 'video/3gpp',
      extension: '3gp',
    });
  });
  it('refuses other codecs', async () => {
    expect(await detect(mp4({ video: 'hvc1' }))).toEqual({ refused: VIDEO_CODECS });
    expect(await detect(mp4({ audio: 0x6b }))).toEqual({ refused: VIDEO_CODECS }); // MP3 in MP4
  });
  it('refuses a cut-off MP4, and accepts one whose moov comes after the head', async () => {
    const file = mp4({ mdat: 4096 });
    expect(await detect(file.subarray(0, file.length - 100))).toEqual({ refused: 'Arquivo incompleto ou corrompido.' });
    const late = Buffer.concat([
      ftyp('mp42', 'isom'),
      box('mdat', Buffer.alloc(2000)),
      box('moov', trak('vide', videoEntry('hvc1'))),
    ]);
    expect(accepted(await detectFile(late.subarray(0, 1000), { totalSize: late.length }))).toMatchObject({
      kind: 'video',
    });
    expect(await detect(late)).toEqual({ refused: VIDEO_CODECS });
  });
  it('refuses QuickTime and HEIF, and video over 16 MB', async () => {
    expect(await detect(Buffer.concat([ftyp('qt  ', 'qt  '), box('mdat')]))).toEqual({ refused: NOT_ACCEPTED });
    expect(await detect(Buffer.concat([ftyp('heic', 'mif1', 'heic'), box('meta')]))).toEqual({ refused: NOT_ACCEPTED });
    const file = mp4();
    expect(await detectFile(file, { totalSize: 16 * MB + 1 })).toEqual({
      refused: 'Arquivo muito grande: vídeos podem ter até 16 MB.',
    });
  });
});

describe('detectFile: WebM', () => {
  const vint = (n: number) => Buffer.from([0x80 | n]);
  const el = (id: number[], ...content: Buffer[]) => {
    const data = Buffer.concat(content);
    return Buffer.concat([Buffer.from(id), vint(data.length), data]);
  };
  const ebml = (docType: string) => el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], Buffer.from(docType)));
  const track = (type: number, codec: string) =>
    el([0xae], el([0xd7], Buffer.from([1])), el([0x83], Buffer.from([type])), el([0x86], Buffer.from(codec)));
  const file = (docType: string, ...tracks: Buffer[]) =>
    Buffer.concat([
      ebml(docType),
      Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      el([0x16, 0x54, 0xae, 0x6b], ...tracks),
    ]);

  it('takes the browser recording (Opus audio only) as a voice note', async () => {
    expect(accepted(await detect(file('webm', track(2, 'A_OPUS'))))).toEqual({
      kind: 'audio',
      mimeType: 'audio/webm',
      extension: 'webm',
      voiceCapable: true,
    });
  });
  it('refuses WebM with video, other codecs or another DocType', async () => {
    expect(await detect(file('webm', track(2, 'A_OPUS'), track(1, 'V_VP8')))).toEqual({ refused: NOT_ACCEPTED });
    expect(await detect(file('webm', track(2, 'A_VORBIS')))).toEqual({ refused: NOT_ACCEPTED });
    expect(await detect(file('matroska', track(2, 'A_OPUS')))).toEqual({ refused: NOT_ACCEPTED });
  });
});
