import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contactsMsg } from '../../../contract/contacts';
import { isOptOutMessage, setContactOptOut } from '../../chatbot/opt-out';
import { contacts } from '../../db/schema';
import { accountPerFile, appPerFile } from '../../testing/app-per-file';
import { type ApiMethod, apiCall, newCustomer } from '../../testing/test-app';
import { searchIndexSettings } from './search-index';

const ctx = appPerFile();
const account = accountPerFile(ctx);

const call = (method: ApiMethod, url: string, payload?: object, c = account.cookie) =>
  apiCall(ctx, method, url, { payload, cookie: c });

/** 'Contato 1' … 'Contato n', straight into the database. */
const insertNumberedContacts = (userId: string, n: number) =>
  ctx.database.db.execute(sql`insert into contacts (user_id, name, phone)
    select ${userId}, 'Contato ' || i, '+55119' || lpad(i::text, 8, '0') from generate_series(1, ${n}) as i`);

const freshAccount = (overrides = {}) => newCustomer(ctx, overrides);

describe('contacts CRUD', () => {
  it('creates, lists, updates and deletes a contact with email, tags and opt-out', async () => {
    const { cookie: c } = await freshAccount();
    const created = await call(
      'POST',
      '/api/contacts',
      {
        name: '  Maria José ',
        phone: '(21) 99876-5432',
        email: 'maria@example.com',
        isActive: true,
        tags: ' vip, , cliente ,vip',
      },
      c,
    );
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      success: true,
      message: contactsMsg.created,
      contact: {
        name: 'Maria José',
        phone: '+5521998765432',
        email: 'maria@example.com',
        tags: ['vip', 'cliente'],
        optedOut: false,
      },
    });
    const id = created.json().contact.id;
    const list = await call('GET', '/api/contacts', undefined, c);
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).toMatchObject({ id, isActive: true, isWhatsAppActive: null });

    const updated = await call(
      'PUT',
      `/api/contacts/${id}`,
      { name: 'Maria', phone: '+55 21 99876-5432', isActive: false, tags: ['a', ' b '], optedOut: true, email: '' },
      c,
    );
    expect(updated.json()).toMatchObject({
      message: contactsMsg.updated,
      contact: { name: 'Maria', isActive: false, optedOut: true, tags: ['a', 'b'], email: null },
    });

    const del = await call('DELETE', `/api/contacts/${id}`, undefined, c);
    expect(del.json()).toMatchObject({ success: true, message: contactsMsg.deleted });
    expect((await call('GET', '/api/contacts', undefined, c)).json()).toEqual([]);
    expect((await call('DELETE', `/api/contacts/${id}`, undefined, c)).statusCode).toBe(404);
  });

  it('requires name and phone, and refuses invalid numbers and emails in pt-BR', async () => {
    const noName = await call('POST', '/api/contacts', { name: ' ', phone: '21998765432' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe(contactsMsg.required);
    const noPhone = await call('POST', '/api/contacts', { name: 'Ana', phone: '' });
    expect(noPhone.json().message).toBe(contactsMsg.required);
    for (const phone of ['123', '(00) 99876-5432', 'telefone']) {
      const res = await call('POST', '/api/contacts', { name: 'Ana', phone });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json().message).toBe(contactsMsg.invalidPhone);
    }
    const badEmail = await call('POST', '/api/contacts', { name: 'Ana', phone: '21998765400', email: 'x@' });
    expect(badEmail.json().message).toBe(contactsMsg.invalidEmail);
  });

  it('treats the three spellings of one number as the same contact', async () => {
    const { cookie: c } = await freshAccount();
    const first = await call('POST', '/api/contacts', { name: 'A', phone: '(21) 99876-5432' }, c);
    expect(first.json().contact.phone).toBe('+5521998765432');
    for (const phone of ['+55 21 99876-5432', '5521998765432']) {
      const dup = await call('POST', '/api/contacts', { name: 'B', phone }, c);
      expect(dup.statusCode, phone).toBe(409);
      expect(dup.json().message).toBe(contactsMsg.duplicatePhone);
    }
    // A mobile written without the ninth digit gets it.
    const old = await call('POST', '/api/contacts', { name: 'C', phone: '(21) 8765-4321' }, c);
    expect(old.json().contact.phone).toBe('+5521987654321');
    // Updating another contact onto an existing number is refused too.
    const other = await call('PUT', `/api/contacts/${old.json().contact.id}`, { name: 'C', phone: '21 99876-5432' }, c);
    expect(other.statusCode).toBe(409);
    // Another account may keep the same number.
    expect((await call('POST', '/api/contacts', { name: 'A', phone: '21998765432' })).statusCode).toBe(200);
  });

  it('refuses another account’s contact ids', async () => {
    const a = await freshAccount();
    const b = await freshAccount();
    const id = (await call('POST', '/api/contacts', { name: 'A', phone: '11987650000' }, a.cookie)).json().contact.id;
    expect((await call('PUT', `/api/contacts/${id}`, { name: 'X', phone: '11987650000' }, b.cookie)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/api/contacts/${id}`, undefined, b.cookie)).statusCode).toBe(404);
    const [row] = await ctx.database.db.select().from(contacts).where(eq(contacts.id, id));
    expect(row.name).toBe('A');
  });
});

describe('plan limits', () => {
  async function fill(user: string, n: number) {
    await ctx.database.db.execute(sql`insert into contacts (user_id, name, phone)
      select ${user}, 'C' || i, '+55119' || lpad(i::text, 8, '0') from generate_series(1, ${n}) as i`);
  }

  it('stops Básico at 5,000 contacts with a clear message', async () => {
    const { user, cookie: c } = await freshAccount({ planType: 'basic' });
    await fill(user.id, 4999);
    expect((await call('POST', '/api/contacts', { name: 'ok', phone: '21998760001' }, c)).statusCode).toBe(200);
    const over = await call('POST', '/api/contacts', { name: 'over', phone: '21998760002' }, c);
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(contactsMsg.planLimit(5000, 'Plano Básico'));
  });

  it('lets Profissional reach 15,000 and Enterprise and Premium go past it', async () => {
    const pro = await freshAccount({ planType: 'professional' });
    await fill(pro.user.id, 15000);
    const over = await call('POST', '/api/contacts', { name: 'over', phone: '21998760002' }, pro.cookie);
    expect(over.json().message).toBe(contactsMsg.planLimit(15000, 'Plano Profissional'));
    for (const planType of ['enterprise', 'premium']) {
      const acc = await freshAccount({ planType });
      await fill(acc.user.id, 15001);
      expect((await call('POST', '/api/contacts', { name: 'x', phone: '21998760003' }, acc.cookie)).statusCode).toBe(
        200,
      );
    }
  });
});

const searchPaths = [
  ['in the database', Number.POSITIVE_INFINITY],
  ['in the process’s index of a large account', 1],
] as const;

async function withIndexFrom<T>(minContacts: number, body: () => Promise<T>): Promise<T> {
  const saved = searchIndexSettings.minContacts;
  searchIndexSettings.minContacts = minContacts;
  try {
    return await body();
  } finally {
    searchIndexSettings.minContacts = saved;
  }
}

const namesOf = (res: { json(): { items: Array<{ name: string }> } }) => res.json().items.map((x) => x.name);

describe.each(searchPaths)('paginated search %s', (_label, minContacts) => {
  it('pages and searches on name (case and accents ignored) or phone digits, with stats', () =>
    withIndexFrom(minContacts, async () => {
      const { cookie: c } = await freshAccount();
      const people = [
        ['João Silva', '(21) 99876-5432'],
        ['Ana Souza', '(11) 91234-5678'],
        ['joana prado', '(31) 98888-7777'],
        ['Bruno', '(41) 97777-6666'],
      ];
      for (const [name, phone] of people) await call('POST', '/api/contacts', { name, phone }, c);
      await call('POST', '/api/contacts', { name: 'Zeca', phone: '51966665555', optedOut: true }, c);

      const page1 = (await call('GET', '/api/contacts?page=1&limit=2', undefined, c)).json();
      expect(page1).toMatchObject({
        total: 5,
        page: 1,
        limit: 2,
        stats: { total: 5, active: 4, optedOut: 1 },
        contactLimit: 5000,
      });
      expect(page1.items.map((x: { name: string }) => x.name)).toEqual(['Ana Souza', 'Bruno']);
      const page3 = (await call('GET', '/api/contacts?page=3&limit=2', undefined, c)).json();
      expect(page3.items.map((x: { name: string }) => x.name)).toEqual(['Zeca']);

      const names = async (q: string) =>
        (await call('GET', `/api/contacts?q=${encodeURIComponent(q)}`, undefined, c))
          .json()
          .items.map((x: { name: string }) => x.name);
      expect(await names('JOAO')).toEqual(['João Silva']);
      expect(await names('joã')).toEqual(['joana prado', 'João Silva']);
      expect(await names('(21) 9987')).toEqual(['João Silva']);
      expect(await names('+55 11')).toEqual(['Ana Souza']);
      expect(await names('%')).toEqual([]);
      expect(await names('jo\u0000ao')).toEqual([]);
      expect((await call('GET', '/api/contacts?limit=1000', undefined, c)).statusCode).toBe(400);
      const search = (await call('GET', '/api/contacts?q=o&page=1&limit=2', undefined, c)).json();
      expect(search).toMatchObject({ total: 4, totalIsLowerBound: false });
      expect(search.items.map((x: { name: string }) => x.name)).toEqual(['Ana Souza', 'Bruno']);
      const beyond = (await call('GET', '/api/contacts?q=o&page=5&limit=2', undefined, c)).json();
      expect(beyond).toMatchObject({ items: [], total: 4 });
    }));

  it('finds a contact as soon as it is created, renamed or deleted', () =>
    withIndexFrom(minContacts, async () => {
      const { cookie: c } = await freshAccount();
      await call('POST', '/api/contacts', { name: 'Primeiro', phone: '21998760001' }, c);
      const find = async (q: string) =>
        namesOf(await call('GET', `/api/contacts?q=${q}&page=1&limit=10`, undefined, c));
      expect(await find('primeiro')).toEqual(['Primeiro']);
      const created = await call('POST', '/api/contacts', { name: 'Segundo Nome', phone: '21998760002' }, c);
      expect(await find('segundo')).toEqual(['Segundo Nome']);
      const id = created.json().contact.id;
      await call('PUT', `/api/contacts/${id}`, { name: 'Terceiro', phone: '21998760003' }, c);
      expect(await find('segundo')).toEqual([]);
      expect(await find('998760003')).toEqual(['Terceiro']);
      await call('DELETE', `/api/contacts/${id}`, undefined, c);
      expect(await find('terceiro')).toEqual([]);
      const file = { name: 'c.csv', data: 'Nome,Telefone\nQuarta Importada,21998760004\n' };
      await apiCall(ctx, 'POST', '/api/contacts/import', { cookie: c, file });
      expect(await find('importada')).toEqual(['Quarta Importada']);
    }));
});

describe('search index of large accounts', () => {
  it('answers the same pages from the database and from the index, for every kind of search', async () => {
    const { user, cookie: c } = await freshAccount();
    await ctx.database.db.execute(sql`insert into contacts (user_id, name, phone)
      select ${user.id},
        (array['Ana','João','Maria','José','Antônio','Conceição','Zé','ÉRICA','maria  eduarda','Luíza'])[1 + i % 10]
          || ' ' || (array['Silva','Araújo','Gonçalves','D''Ávila','Souza_Lima','100%'])[1 + i % 6] || ' ' || i,
        '+55' || (array['11','21','31','85'])[1 + i % 4] || '9' || lpad((i * 7919 % 100000000)::text, 8, '0')
      from generate_series(1, 400) as i`);
    // Control characters typed into names: the index separates its rows with one of them.
    await ctx.database.db.execute(sql`insert into contacts (user_id, name, phone) values
      (${user.id}, ${'Con\u0001trole'}, '+5521900000001'), (${user.id}, ${'Con\u0002trole'}, '+5521900000002')`);
    const queries = [
      'con\u0001t',
      'con\u0002t',
      'ntrole',
      'maria',
      'MARIA  ED',
      'joão',
      'conceicao',
      'ze',
      'é',
      'silva 1',
      "d'ávila",
      '_',
      '100%',
      '%',
      '(21) 9',
      '+55 85',
      '79',
      '0',
      'zzz',
      'a',
    ];
    for (const q of queries) {
      for (const page of [1, 2, 5]) {
        const url = `/api/contacts?q=${encodeURIComponent(q)}&page=${page}&limit=20`;
        const fromDb = (await withIndexFrom(Number.POSITIVE_INFINITY, () => call('GET', url, undefined, c))).json();
        const fromIndex = (await withIndexFrom(1, () => call('GET', url, undefined, c))).json();
        expect({ q, page, items: fromIndex.items, total: fromIndex.total }).toEqual({
          q,
          page,
          items: fromDb.items,
          total: fromDb.total,
        });
      }
    }
  });

  it('counts every match of a large account’s search exactly', () =>
    withIndexFrom(1, async () => {
      const { user, cookie: c } = await freshAccount();
      await insertNumberedContacts(user.id, 1050);
      const res = (await call('GET', '/api/contacts?q=contato&page=21&limit=50', undefined, c)).json();
      expect(res).toMatchObject({ total: 1050, totalIsLowerBound: false, page: 21 });
      expect(res.items).toHaveLength(50);
    }));
});

describe('paginated search in the database', () => {
  it('counts a very common search up to 1,000 matches and says there are more', async () => {
    const { user, cookie: c } = await freshAccount();
    await insertNumberedContacts(user.id, 1050);
    const res = (await call('GET', '/api/contacts?q=contato&page=3&limit=50', undefined, c)).json();
    expect(res).toMatchObject({ total: 1000, totalIsLowerBound: true, page: 3 });
    expect(res.items).toHaveLength(50);
    const all = (await call('GET', '/api/contacts?page=22&limit=50', undefined, c)).json();
    expect(all).toMatchObject({ total: 1050, totalIsLowerBound: false });
    expect(all.items).toHaveLength(0);
  });
});

describe('opt-out', () => {
  it('recognises the opt-out words and flags the contact by its number', async () => {
    for (const w of ['SAIR', 'parar', ' Stop ', 'cancelar', 'Sair.', '*PARAR*', 'stop!']) {
      expect(isOptOutMessage(w), w).toBe(true);
    }
    for (const w of ['sair agora', 'não quero sair', 'SAIRR', '']) expect(isOptOutMessage(w), w).toBe(false);
    const { user, cookie: c } = await freshAccount();
    await call('POST', '/api/contacts', { name: 'A', phone: '21998765432' }, c);
    expect(await setContactOptOut(ctx.database.db, user.id, '5521998765432')).toBe(true);
    expect((await call('GET', '/api/contacts', undefined, c)).json()[0].optedOut).toBe(true);
    expect(await setContactOptOut(ctx.database.db, user.id, '5521900000000')).toBe(false);
  });
});
