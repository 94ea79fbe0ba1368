import { deflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contactsMsg, IMPORT_MAX_FILE_MB, importErrorLine, neutralizeCell } from '../../../contract/contacts';
import { contacts } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { apiCall, newCustomer } from '../../testing/test-app';
import { buildZip } from '../../testing/zip-bomb';

const ctx = appPerFile();

const account = (overrides = {}) => newCustomer(ctx, overrides);

const upload = (cookie: string, filename: string, data: Buffer | string) =>
  apiCall(ctx, 'POST', '/api/contacts/import', { cookie, file: { name: filename, data } });

const phonesOf = async (userId: string) =>
  (
    await ctx.database.db
      .select({ phone: contacts.phone, name: contacts.name, email: contacts.email, tags: contacts.tags })
      .from(contacts)
      .where(eq(contacts.userId, userId))
  ).sort((a, b) => a.phone.localeCompare(b.phone));

function sheet(rows: unknown[][], bookType: 'xlsx' | 'biff8'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Contatos');
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

describe('contacts import', () => {
  it('imports a comma CSV, counting duplicates in the file and against existing contacts, with row errors', async () => {
    const { user, cookie } = await account();
    await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Já existe', phone: '11912345678' },
      headers: { cookie },
    });
    const csv = [
      'Nome,Telefone,Email,Tags',
      'Ana,(21) 99876-5432,ana@example.com,"vip, cliente"',
      'Ana de novo,+55 21 99876-5432,,',
      'Bia,5511912345678,,',
      'Caio,123,,',
      'Duda,,,',
      'Edu,31 98888-7777,nao-e-email,',
      '',
      'Fabi,(41) 8777-6666,,lead',
    ].join('\n');
    const res = await upload(cookie, 'contatos.csv', csv);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, imported: 2, duplicates: 2 });
    expect(body.message).toBe('2 contatos importados com sucesso; 2 duplicados ignorados; 3 linhas com erro');
    expect(body.errors).toEqual([
      {
        row: 5,
        reason: contactsMsg.rowInvalidPhone,
        name: 'Caio',
        phone: '123',
        email: '',
        tags: '',
        column: 'phone',
        value: '123',
      },
      {
        row: 6,
        reason: contactsMsg.rowMissingPhone,
        name: 'Duda',
        phone: '',
        email: '',
        tags: '',
        column: 'phone',
        value: '',
      },
      {
        row: 7,
        reason: contactsMsg.rowInvalidEmail,
        name: 'Edu',
        phone: '31 98888-7777',
        email: 'nao-e-email',
        tags: '',
        column: 'email',
        value: 'nao-e-email',
      },
    ]);
    expect(await phonesOf(user.id)).toEqual([
      { phone: '+5511912345678', name: 'Já existe', email: null, tags: [] },
      { phone: '+5521998765432', name: 'Ana', email: 'ana@example.com', tags: ['vip', 'cliente'] },
      { phone: '+5541987776666', name: 'Fabi', email: null, tags: ['lead'] },
    ]);
  });

  it('keeps a row without a name nameless (never its number as the name), with a header or a phone-only file', async () => {
    const { user, cookie } = await account();
    const csv = 'Nome;Telefone;Email\n;11987650098;\n   ;11987650097;sem@nome.com\nZé;11987650096;\n';
    expect((await upload(cookie, 'sem-nome.csv', csv)).json()).toMatchObject({ success: true, imported: 3 });
    expect((await upload(cookie, 'numeros.txt', '11987650095\n11987650094\n')).json()).toMatchObject({ imported: 2 });
    expect((await phonesOf(user.id)).map((c) => [c.phone, c.name])).toEqual([
      ['+5511987650094', ''],
      ['+5511987650095', ''],
      ['+5511987650096', 'Zé'],
      ['+5511987650097', ''],
      ['+5511987650098', ''],
    ]);
  });

  it('quotes in each error line the value of the column the row was refused for, cut when long', async () => {
    const { cookie } = await account({ planType: 'basic' });
    const longEmail = `${'a'.repeat(70)}@exemplo`;
    const longPhone = `11 9${'8'.repeat(80)}`;
    const lines = ['Nome;Telefone;Email;Tags'];
    // Fillers up to line 55, so the bad e-mail is on line 56 as in the report.
    for (let n = 2; n <= 55; n++) lines.push(`Cliente ${n};119876500${String(n).padStart(2, '0')};;`);
    lines.push(
      'Zé;11987650099;email-ruim;vip', // 56
      'Ana;abc;ana@exemplo.com.br;', // 57
      'Bia;;bia@exemplo.com.br;', // 58
      `Caio;11987650100;${longEmail};`, // 59
      `Duda;${longPhone};;`, // 60
      `Edu;11987650101;${'b'.repeat(58)}😀@x;`, // 61: the cut would split the emoji
    );
    const body = (await upload(cookie, 'erros.csv', lines.join('\r\n'))).json();
    expect(body).toMatchObject({ success: true, imported: 54 });
    const cut = (s: string) => `${s.slice(0, 59)}…`;
    expect(body.errors.map((e: { column: string; value: string }) => [e.column, e.value])).toEqual([
      ['email', 'email-ruim'],
      ['phone', 'abc'],
      ['phone', ''],
      ['email', cut(longEmail)],
      ['phone', cut(longPhone)],
      ['email', `${'b'.repeat(58)}…`],
    ]);
    expect(body.errors.map(importErrorLine)).toEqual([
      'Linha 56: Email inválido (email-ruim)',
      'Linha 57: Telefone inválido (abc)',
      'Linha 58: Telefone ausente',
      `Linha 59: Email inválido (${cut(longEmail)})`,
      `Linha 60: Telefone inválido (${cut(longPhone)})`,
      `Linha 61: Email inválido (${'b'.repeat(58)}…)`,
    ]);
    // The rows' own cells are still all there, for the file of rejected rows.
    expect(body.errors[0]).toMatchObject({ name: 'Zé', phone: '11987650099', email: 'email-ruim', tags: 'vip' });
  });

  it('quotes the number of a row refused for the plan’s limit', async () => {
    const { user, cookie } = await account({ planType: 'basic' });
    await ctx.database.db.execute(
      sql`insert into contacts (user_id, name, phone) select ${user.id}, 'C' || i, '+55119' || lpad(i::text, 8, '0') from generate_series(1, 4999) as i`,
    );
    const res = (
      await upload(cookie, 'c.csv', 'Nome,Telefone,Email\nA,21998760001,a@x.com\nB,(21) 99876-0002,b@x.com\n')
    ).json();
    expect(res.errors.map(importErrorLine)).toEqual([`Linha 3: ${contactsMsg.rowOverLimit} ((21) 99876-0002)`]);
  });

  it('writes the counts of its message in the singular when there is one of each', async () => {
    const { cookie } = await account();
    const csv = ['Nome,Telefone', 'Ana,(21) 99876-5432', 'Ana de novo,+55 21 99876-5432', 'Caio,123'].join('\n');
    const res = await upload(cookie, 'um-de-cada.csv', csv);
    expect(res.json()).toMatchObject({
      success: true,
      imported: 1,
      duplicates: 1,
      message: '1 contato importado com sucesso; 1 duplicado ignorado; 1 linha com erro',
    });
  });

  it('counts duplicates against an account larger than the file', async () => {
    const { user, cookie } = await account();
    for (const phone of ['21998765401', '21998765402', '21998765403']) {
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/api/contacts',
        payload: { name: `Existente ${phone}`, phone },
        headers: { cookie },
      });
      expect(created.statusCode).toBe(200);
    }
    const res = await upload(cookie, 'pequeno.csv', 'Nome,Telefone\nNova,21998765499\nRepetida,(21) 99876-5402\n');
    expect(res.json()).toMatchObject({ success: true, imported: 1, duplicates: 1 });
    expect((await phonesOf(user.id)).map((c) => c.phone)).toEqual([
      '+5521998765401',
      '+5521998765402',
      '+5521998765403',
      '+5521998765499',
    ]);
  });

  it('reads a semicolon CSV written by Brazilian Excel in Windows-1252, with accented headers', async () => {
    const { user, cookie } = await account();
    const text = 'NOME;Número;E-mail;Etiquetas\r\nJosé Conceição;(11) 98765-4321;jose@example.com;São Paulo, açaí\r\n';
    const res = await upload(cookie, 'excel.csv', Buffer.from(text, 'latin1'));
    expect(res.json()).toMatchObject({ success: true, imported: 1, duplicates: 0, errors: [] });
    expect(await phonesOf(user.id)).toEqual([
      { phone: '+5511987654321', name: 'José Conceição', email: 'jose@example.com', tags: ['São Paulo', 'açaí'] },
    ]);
  });

  it('reads the separator of a short semicolon file from its header, whatever its last line', async () => {
    const { user, cookie } = await account();
    const res = await upload(cookie, 'curto.csv', 'Nome;Telefone\nAna;(21) 99876-5432\nBia;11987654321\n');
    expect(res.json()).toMatchObject({ success: true, imported: 2 });
    expect((await phonesOf(user.id)).map((c) => c.name).sort()).toEqual(['Ana', 'Bia']);
  });

  it('reads a TXT with one number per line and English column names', async () => {
    const a = await account();
    expect((await upload(a.cookie, 'numeros.txt', '21998765432\n11 91234-5678\n')).json()).toMatchObject({
      imported: 2,
    });
    const b = await account();
    const res = await upload(b.cookie, 'list.txt', 'Phone\tName\tMail\n21998765432\tAlice\talice@example.com\n');
    expect(res.json()).toMatchObject({ imported: 1 });
    expect((await phonesOf(b.user.id))[0]).toMatchObject({ name: 'Alice', email: 'alice@example.com' });
  });

  it('imports an .xlsx and an .xls, with phones typed as numbers', async () => {
    const rows = [
      ['Nome', 'Telefone', 'Email', 'Tags'],
      ['Gil', 5521998765432, 'gil@example.com', 'a;b'],
      ['Hel', '(11) 91234-5678', '', ''],
    ];
    for (const [name, data] of [
      ['contatos.xlsx', sheet(rows, 'xlsx')],
      ['contatos.xls', sheet(rows, 'biff8')],
    ] as const) {
      const { user, cookie } = await account();
      const res = await upload(cookie, name, data);
      expect(res.json(), name).toMatchObject({ success: true, imported: 2, duplicates: 0, errors: [] });
      expect((await phonesOf(user.id)).map((c) => c.phone)).toEqual(['+5511912345678', '+5521998765432']);
      expect((await phonesOf(user.id))[1].tags).toEqual(['a', 'b']);
    }
  });

  it('refuses files that are not what they claim: other extensions, a renamed executable, a broken spreadsheet', async () => {
    const { user, cookie } = await account();
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(512)]);
    for (const [name, data] of [
      ['contatos.pdf', Buffer.from('Nome,Telefone\nA,21998765432\n')],
      ['contatos.csv', exe],
      ['contatos.xlsx', exe],
      ['contatos.xlsx', Buffer.from('PK\x03\x04 not really a zip', 'latin1')],
    ] as const) {
      const res = await upload(cookie, name, data);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message).toBe(contactsMsg.invalidFile);
    }
    const noFile = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/import',
      payload: {},
      headers: { cookie },
    });
    expect(noFile.json().message).toBe(contactsMsg.noFile);
    expect(await phonesOf(user.id)).toEqual([]);
  });

  it('refuses an oversized file with a clear message', async () => {
    const { cookie } = await account();
    const big = Buffer.alloc((IMPORT_MAX_FILE_MB + 1) * 1024 * 1024, 'a');
    const res = await upload(cookie, 'grande.csv', big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(contactsMsg.fileTooLarge(IMPORT_MAX_FILE_MB));
  });

  it('refuses zip bombs: entries that inflate past their declared size, or declare too much', async () => {
    const { cookie } = await account();
    const data = deflateRawSync(Buffer.alloc(20 * 1024 * 1024));
    // Both headers say deflate and `declared` bytes; the data inflates to 20 MB.
    const zip = (declared: number) =>
      buildZip([
        {
          name: 'xl/worksheets/sheet1.xml',
          data,
          local: { method: 8, size: declared },
          central: { method: 8, size: declared },
        },
      ]);
    for (const declared of [1000, 0xfffffffe]) {
      const res = await upload(cookie, 'bomba.xlsx', zip(declared));
      expect(res.statusCode, String(declared)).toBe(413);
      expect(res.json().message).toBe(contactsMsg.spreadsheetTooLarge);
    }
  });

  it('answers success false with the reason for an empty file or one without a phone column', async () => {
    const { cookie } = await account();
    expect((await upload(cookie, 'vazio.csv', '\n\n')).json()).toMatchObject({
      success: false,
      message: contactsMsg.emptyFile,
    });
    expect((await upload(cookie, 'x.csv', 'Nome,Cidade\nAna,Rio\n')).json()).toMatchObject({
      success: false,
      message: contactsMsg.noPhoneColumn,
      imported: 0,
    });
  });

  it('imports up to the plan limit and nothing beyond it', async () => {
    const { user, cookie } = await account({ planType: 'basic' });
    await ctx.database.db.execute(
      sql`insert into contacts (user_id, name, phone) select ${user.id}, 'C' || i, '+55119' || lpad(i::text, 8, '0') from generate_series(1, 4998) as i`,
    );
    const csv = ['Nome,Telefone', 'A,21998760001', 'B,21998760002', 'C,21998760003', 'D,21998760004'].join('\n');
    const res = (await upload(cookie, 'c.csv', csv)).json();
    expect(res).toMatchObject({ success: true, imported: 2 });
    expect(res.message).toBe(contactsMsg.importPlanLimit(2, 2, 5000, 'Plano Básico'));
    expect(res.errors.map((e: { row: number; reason: string }) => [e.row, e.reason])).toEqual([
      [4, contactsMsg.rowOverLimit],
      [5, contactsMsg.rowOverLimit],
    ]);
    const full = (await upload(cookie, 'd.csv', 'Telefone\n21998760009\n')).json();
    expect(full).toMatchObject({ success: false, imported: 0 });
    expect(full.message).toBe(contactsMsg.planLimit(5000, 'Plano Básico'));
    expect((await phonesOf(user.id)).length).toBe(5000);
  });

  it('stores names, e-mails and tags with quotes, backslashes, tabs and line breaks exactly as written', async () => {
    const { user, cookie } = await account();
    const csv = [
      'Nome;Telefone;Email;Tags',
      '"Ana \\ ""Aninha"" D\'Ávila";21998765432;ana+1@example.com;"vip\\x; ""quoted""; {chave}"',
      '"Bia\tTab\nQuebra";21998765433;;',
      'Caio \\N;21998765434;;\\N',
    ].join('\r\n');
    const res = await upload(cookie, 'especiais.csv', csv);
    expect(res.json()).toMatchObject({ success: true, imported: 3, duplicates: 0, errors: [] });
    expect(await phonesOf(user.id)).toEqual([
      {
        phone: '+5521998765432',
        name: 'Ana \\ "Aninha" D\'Ávila',
        email: 'ana+1@example.com',
        tags: ['vip\\x', '"quoted"', '{chave}'],
      },
      { phone: '+5521998765433', name: 'Bia\tTab\nQuebra', email: null, tags: [] },
      { phone: '+5521998765434', name: 'Caio \\N', email: null, tags: ['\\N'] },
    ]);
  });

  it('is atomic: a failure part-way leaves nothing imported', async () => {
    const { user, cookie } = await account();
    // A constraint makes the last row fail after the others were written (on PostgreSQL, in the last
    // of three INSERT batches; on the embedded database, at the end of its COPY).
    await ctx.database.db.execute(sql`alter table contacts add constraint test_no_zz check (name <> 'ZZ-falha')`);
    try {
      const lines = ['Nome,Telefone'];
      for (let i = 0; i < 4500; i++) lines.push(`N${i},+55 21 9${String(10000000 + i)}`);
      lines.push('ZZ-falha,21999999999');
      const res = await upload(cookie, 'grande.csv', lines.join('\n'));
      expect(res.statusCode).toBe(500);
      expect(await phonesOf(user.id)).toEqual([]);
    } finally {
      await ctx.database.db.execute(sql`alter table contacts drop constraint test_no_zz`);
    }
  });
});

describe('contacts export and template', () => {
  it('downloads every contact as CSV and XLSX with formula cells neutralised', async () => {
    const { cookie } = await account();
    await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: '=HYPERLINK("http://x")', phone: '21998765432', tags: ['@vip', '-1'] },
      headers: { cookie },
    });
    const csv = await ctx.app.inject({ method: 'GET', url: '/api/contacts/export?format=csv', headers: { cookie } });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="contatos-\d{4}-\d\d-\d\d\.csv"/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Nome;Telefone;Email;Tags;Ativo;Descadastrado;WhatsApp');
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://x"")";+5521998765432;;"'@vip, -1";Sim;Não;Não verificado`);

    const xlsx = await ctx.app.inject({ method: 'GET', url: '/api/contacts/export?format=xlsx', headers: { cookie } });
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const book = XLSX.read(xlsx.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    // Text cells: shown as written, never evaluated, the phone not turned into a number.
    expect(rows[1].slice(0, 4)).toEqual(['=HYPERLINK("http://x")', '+5521998765432', '', '@vip, -1']);
    const phoneCell = book.Sheets[book.SheetNames[0]].B2;
    expect(phoneCell).toMatchObject({ t: 's', v: '+5521998765432' });

    // What we export imports back as the same contact (the apostrophes are dropped).
    const other = await account();
    const back = (await upload(other.cookie, 'contatos.csv', csv.rawPayload)).json();
    expect(back).toMatchObject({ imported: 1, errors: [] });
    expect((await phonesOf(other.user.id))[0]).toMatchObject({
      name: '=HYPERLINK("http://x")',
      phone: '+5521998765432',
    });
    // And so does the XLSX.
    const third = await account();
    expect((await upload(third.cookie, 'contatos.xlsx', xlsx.rawPayload)).json()).toMatchObject({
      imported: 1,
      errors: [],
    });
    expect((await phonesOf(third.user.id))[0]).toMatchObject({
      name: '=HYPERLINK("http://x")',
      phone: '+5521998765432',
      tags: ['@vip', '-1'],
    });
  });

  it('exports what the list shows: the same search and tag, through the list’s own filter, and only the account’s contacts', async () => {
    const { cookie } = await account();
    const people = [
      { name: 'Maria Vip', phone: '21998760001', tags: ['vip'] },
      { name: 'Bruno Vip', phone: '21998760002', tags: ['vip', 'lead'] },
      { name: 'Carla Vip', phone: '21998760003', tags: ['VIP cliente', 'vip'] },
      { name: 'Maria Lead', phone: '21998760004', tags: ['lead'] },
      { name: 'Sem tag', phone: '21998760005', tags: [] },
    ];
    for (const payload of people)
      expect(
        (await ctx.app.inject({ method: 'POST', url: '/api/contacts', payload, headers: { cookie } })).statusCode,
      ).toBe(200);
    // Another account's vip is never in this account's file.
    const other = await account();
    await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Outra Vip', phone: '21998760009', tags: ['vip'] },
      headers: { cookie: other.cookie },
    });

    const exported = async (query: string) => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/contacts/export?${query}`, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      return res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(';')[0]);
    };
    const listed = async (query: string) => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/contacts?${query}&limit=200`, headers: { cookie } });
      return (res.json() as { items: Array<{ name: string }> }).items.map((c) => c.name);
    };
    for (const query of ['tag=vip', 'tag=vip&q=maria', 'q=maria', 'q=lead', 'q=98760004', 'tag=lead&q=vip']) {
      expect(await exported(`format=csv&${query}`), query).toEqual(await listed(query));
    }
    expect(await exported('format=csv&tag=vip')).toEqual(['Bruno Vip', 'Carla Vip', 'Maria Vip']);
    expect(await exported('format=csv&tag=vip&q=maria')).toEqual(['Maria Vip']);
    // A search for a word finds the contacts whose tag holds it, as the list does.
    expect(await exported('format=csv&q=lead')).toEqual(['Bruno Vip', 'Maria Lead']);
    // No filter: every contact; an empty filter is no filter.
    expect(await exported('format=csv')).toHaveLength(5);
    expect(await exported('format=csv&q=&tag=')).toHaveLength(5);
    // Nothing matches: the header alone; a NUL matches nothing, without an error.
    expect(await exported('format=csv&tag=ninguem')).toEqual([]);
    expect(await exported('format=csv&q=%00')).toEqual([]);

    // The XLSX follows the same filter.
    const xlsx = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts/export?format=xlsx&tag=vip',
      headers: { cookie },
    });
    const book = XLSX.read(xlsx.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    expect(rows.slice(1).map((r) => r[0])).toEqual(['Bruno Vip', 'Carla Vip', 'Maria Vip']);

    // A tag longer than any stored one is refused with a pt-BR message, as the list refuses it.
    const long = await ctx.app.inject({
      method: 'GET',
      url: `/api/contacts/export?format=csv&tag=${'x'.repeat(51)}`,
      headers: { cookie },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/[a-zà-ú]/);
  });

  it('neutralises each dangerous first character', () => {
    for (const v of ['=1+1', '+55+cmd|x', '-2+3', '@SUM(A1)', '+55 (11)']) expect(neutralizeCell(v)).toBe(`'${v}`);
    // After a tab the formula is a cell of its own for a reader that splits on tabs.
    expect(neutralizeCell('\t=1')).toBe("\t'=1");
    // Plain numbers cannot run anything; an apostrophe would only spoil them.
    for (const v of ['Ana', '+5521998765432', '-2', '3,5']) expect(neutralizeCell(v)).toBe(v);
  });

  it('exports tabs and line breaks inside cells quoted and neutralised, and imports ordinary ones back as they were', async () => {
    const { cookie } = await account();
    const people = [
      { name: 'Ana\tMaria', phone: '21998765432', tags: ['vip'] },
      { name: 'Bia\t=1+1', phone: '21998765433', tags: ['a\t@x'] },
      { name: '+55 (11)', phone: '21998765434', tags: ['-1'] },
    ];
    for (const payload of people)
      expect(
        (await ctx.app.inject({ method: 'POST', url: '/api/contacts', payload, headers: { cookie } })).statusCode,
      ).toBe(200);
    const csv = await ctx.app.inject({ method: 'GET', url: '/api/contacts/export?format=csv', headers: { cookie } });
    const text = csv.body.replace(/^\uFEFF/, '');
    expect(text).toContain('"Ana\tMaria";+5521998765432;;vip;');
    expect(text).toContain(`"Bia\t'=1+1";+5521998765433;;"a\t'@x";`);
    expect(text).toContain("'+55 (11);+5521998765434;;-1;");
    // Whoever splits the file on tabs and line breaks, ignoring the quotes, finds no formula.
    for (const part of text.split(/[\t\r\n]/)) expect(part, part).not.toMatch(/^"?[=+\-@]/);

    const other = await account();
    expect((await upload(other.cookie, 'contatos.csv', csv.rawPayload)).json()).toMatchObject({
      imported: 3,
      errors: [],
    });
    expect(await phonesOf(other.user.id)).toEqual([
      { phone: '+5521998765432', name: 'Ana\tMaria', email: null, tags: ['vip'] },
      // The apostrophe after a tab stays: only a leading one is how a cell is neutralised.
      { phone: '+5521998765433', name: "Bia\t'=1+1", email: null, tags: ["a\t'@x"] },
      { phone: '+5521998765434', name: '+55 (11)', email: null, tags: ['-1'] },
    ]);
  });

  it('serves the import template as CSV and XLSX', async () => {
    const { cookie } = await account();
    const csv = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts/import-template?format=csv',
      headers: { cookie },
    });
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Nome;Telefone;Email;Tags');
    expect(csv.headers['content-disposition']).toContain('modelo-contatos.csv');
    const xlsx = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts/import-template?format=xlsx',
      headers: { cookie },
    });
    const book = XLSX.read(xlsx.rawPayload, { type: 'buffer' });
    expect(XLSX.utils.sheet_to_json<string[]>(book.Sheets.Contatos, { header: 1 })[0]).toEqual([
      'Nome',
      'Telefone',
      'Email',
      'Tags',
    ]);
    // The template imports as it is.
    const res = (await upload(cookie, 'modelo-contatos.xlsx', xlsx.rawPayload)).json();
    expect(res).toMatchObject({ success: true, imported: 2 });
  });
});
