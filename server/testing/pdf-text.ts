import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF made with the standard fonts (as our reports are), for tests: each content
 * stream is inflated and the strings of its `TJ`/`Tj` operators decoded from WinAnsi, one line per
 * operator. Not a general PDF reader: the readers on npm either need a newer Node or carry a
 * published advisory, and our own files only need their words read back.
 */
export function pdfText(pdf: Buffer): { pages: number; text: string } {
  const raw = pdf.toString('latin1');
  if (!raw.startsWith('%PDF-')) throw new Error('not a PDF');
  const pages = raw.match(/\/Type\s*\/Page\b/g)?.length ?? 0;
  const lines: string[] = [];
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      content = m[1];
    }
    const ops = /\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g;
    for (let op = ops.exec(content); op; op = ops.exec(content)) {
      const hex = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join('') : op[2];
      lines.push(decodeWinAnsi(Buffer.from(hex, 'hex')));
    }
  }
  return { pages, text: lines.join('\n') };
}

/** WinAnsi's 0x80–0x9F differ from Latin-1; the rest is the same. */
const WIN_ANSI_HIGH: Record<number, string> = {
  128: '€',
  130: '‚',
  131: 'ƒ',
  132: '„',
  133: '…',
  134: '†',
  135: '‡',
  136: 'ˆ',
  137: '‰',
  138: 'Š',
  139: '‹',
  140: 'Œ',
  142: 'Ž',
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
  152: '˜',
  153: '™',
  154: 'š',
  155: '›',
  156: 'œ',
  158: 'ž',
  159: 'Ÿ',
};

function decodeWinAnsi(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) out += WIN_ANSI_HIGH[b] ?? String.fromCharCode(b);
  return out;
}
