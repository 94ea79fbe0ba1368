import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CONTACTS_BULK_MAX, type ContactPage, contactsMsg } from '../../../contract/contacts';
import { appPerFile } from '../../testing/app-per-file';
import { type ApiMethod, apiCall, newCustomer } from '../../testing/test-app';
import { searchIndexSettings } from './search-index';

const ctx = appPerFile();

const call = (cookie: string, method: ApiMethod, url: string, payload?: object) =>
  apiCall(ctx, method, url, { payload, cookie });

/** A fresh account with contacts of these names and tags (numbers made up, one per contact). */
async function accountWith(people: Array<[name: string, tags: string[]]>) {
  const { user, cookie } = await newCustomer(ctx, { planType: 'enterprise' });
  const ids: Record<string, string> = {};
  for (const [i, [name, tags]] of people.entries()) {
    const res = await call(cookie, 'POST', '/api/contacts', {
      name,
      phone: `2199${String(8_000_000 + i).padStart(7, '0')}`,
      tags,
    });
    expect(res.statusCode, res.body).toBe(200);
    ids[name] = res.json().contact.id;
  }
  return { user, cookie, ids };
}

const page = async (cookie: string, query: string) => {
  const res = await call(cookie, 'GET', `/api/contacts?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ContactPage;
};
const names = (p: ContactPage) => p.items.map((c) => c.name);
const tagsOf = async (cookie: string) => (await call(cookie, 'GET', '/api/contacts/tags')).json();

describe('GET /api/contacts/tags', () => {
  it('lists the account’s tags with how many contacts carry each, most used first, then by name', async () => {
    const { cookie } = await accountWith([
      ['Ana', ['vip', 'cliente']],
      ['Bruno', ['vip', 'lead']],
      ['Carla', ['vip']],
      ['Davi', ['cliente']],
      ['Eva', []],
    ]);
    expect(await tagsOf(cookie)).toEqual([
      { tag: 'vip', count: 3 },
      { tag: 'cliente', count: 2 },
      { tag: 'lead', count: 1 },
    ]);
    // A change shows at once (this process drops what it kept).
    await call(cookie, 'POST', '/api/contacts', { name: 'Fábio', phone: '21997776655', tags: 'lead, novo' });
    expect(await tagsOf(cookie)).toEqual([
      { tag: 'vip', count: 3 },
      { tag: 'cliente', count: 2 },
      { tag: 'lead', count: 2 },
      { tag: 'novo', count: 1 },
    ]);
    // Another account sees only its own.
    const other = await newCustomer(ctx);
    expect(await tagsOf(other.cookie)).toEqual([]);
  });
});

describe('GET /api/contacts?tag=', () => {
  it('pages the contacts carrying the tag (exactly), alone or within a search, with the account’s stats', async () => {
    const { cookie } = await accountWith([
      ['Ana Souza', ['vip']],
      ['Bruno Souza', ['lead']],
      ['Carla Dias', ['vip', 'lead']],
      ['Davi Reis', ['VIP']],
    ]);
    const vip = await page(cookie, 'tag=vip');
    expect(names(vip)).toEqual(['Ana Souza', 'Carla Dias']);
    expect(vip).toMatchObject({ total: 2, totalIsLowerBound: false, page: 1, stats: { total: 4 } });
    expect(names(await page(cookie, 'tag=vip&q=souza'))).toEqual(['Ana Souza']);
    expect(names(await page(cookie, 'tag=lead&limit=1&page=2'))).toEqual(['Carla Dias']);
    expect((await page(cookie, 'tag=ninguem')).items).toEqual([]);
    // An empty tag filters nothing; a NUL matches nothing, and neither is an error.
    expect(names(await page(cookie, 'tag='))).toHaveLength(4);
    expect((await page(cookie, 'tag=%00')).items).toEqual([]);
    // The plain list (SPEC §7) is unchanged without any parameter.
    const all = await call(cookie, 'GET', '/api/contacts');
    expect(Array.isArray(all.json())).toBe(true);
  });

  it('finds contacts by a tag typed in the search box, as a name is found, in small and large accounts', async () => {
    const { user, cookie } = await accountWith([
      ['Ana', ['Clientes VIP']],
      ['Bruno', ['promoção']],
      ['Carla', []],
    ]);
    const search = async (q: string) => names(await page(cookie, `q=${encodeURIComponent(q)}`));
    expect(await search('vip')).toEqual(['Ana']);
    expect(await search('PROMOCAO')).toEqual(['Bruno']);
    expect(await search('carla')).toEqual(['Carla']);
    // Past the size where searches are answered from this process's index: the same answers.
    await ctx.database.db.execute(sql`insert into contacts (user_id, name, phone)
      select ${user.id}, 'Contato ' || i, '+55119' || lpad(i::text, 8, '0')
      from generate_series(1, ${searchIndexSettings.minContacts}) as i`);
    await call(cookie, 'POST', '/api/contacts', { name: 'Zeca', phone: '21995554433', tags: ['vip'] });
    expect(await search('vip')).toEqual(['Ana', 'Zeca']);
    expect(await search('PROMOCAO')).toEqual(['Bruno']);
    expect(names(await page(cookie, 'tag=vip&q=zeca'))).toEqual(['Zeca']);
  });
});

describe('POST /api/contacts/bulk', () => {
  it('adds a tag to the selected contacts, once, and says how many', async () => {
    const { cookie, ids } = await accountWith([
      ['Ana', ['vip']],
      ['Bruno', []],
      ['Carla', ['lead']],
    ]);
    const res = await call(cookie, 'POST', '/api/contacts/bulk', {
      action: 'tag',
      ids: [ids.Ana, ids.Bruno, ids.Bruno],
      tag: ' vip ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, affected: 1, message: contactsMsg.bulkTagged('vip', 1) });
    expect(res.json().message).toBe('Tag "vip" adicionada a 1 contato.');
    expect(await tagsOf(cookie)).toEqual([
      { tag: 'vip', count: 2 },
      { tag: 'lead', count: 1 },
    ]);
    expect(names(await page(cookie, 'tag=vip'))).toEqual(['Ana', 'Bruno']);
  });

  it('leaves out a contact that already has 30 tags, and says so', async () => {
    const full = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const { cookie, ids } = await accountWith([
      ['Ana', full],
      ['Bruno', []],
    ]);
    const res = await call(cookie, 'POST', '/api/contacts/bulk', { action: 'tag', ids: Object.values(ids), tag: 'x' });
    expect(res.json()).toMatchObject({ affected: 1 });
    expect(res.json().message).toBe(`${contactsMsg.bulkTagged('x', 1)} ${contactsMsg.bulkTagsFull(1)}`);
    expect(res.json().message).toContain('1 contato já tem 30 tags e não recebeu a nova.');
  });

  it('removes a tag from the selected contacts only', async () => {
    const { cookie, ids } = await accountWith([
      ['Ana', ['vip', 'lead']],
      ['Bruno', ['vip']],
      ['Carla', ['vip']],
    ]);
    const res = await call(cookie, 'POST', '/api/contacts/bulk', {
      action: 'untag',
      ids: [ids.Ana, ids.Bruno],
      tag: 'vip',
    });
    expect(res.json()).toEqual({ success: true, affected: 2, message: 'Tag "vip" removida de 2 contatos.' });
    expect(await tagsOf(cookie)).toEqual([
      { tag: 'lead', count: 1 },
      { tag: 'vip', count: 1 },
    ]);
    const list = (await call(cookie, 'GET', '/api/contacts')).json() as Array<{ name: string; tags: string[] }>;
    expect(list.map((c) => [c.name, c.tags])).toEqual([
      ['Ana', ['lead']],
      ['Bruno', []],
      ['Carla', ['vip']],
    ]);
  });

  it('deletes the selected contacts and updates the totals', async () => {
    const { cookie, ids } = await accountWith([
      ['Ana', []],
      ['Bruno', []],
      ['Carla', []],
    ]);
    const before = await page(cookie, 'page=1');
    expect(before.stats.total).toBe(3);
    const res = await call(cookie, 'POST', '/api/contacts/bulk', { action: 'delete', ids: [ids.Ana, ids.Carla] });
    expect(res.json()).toEqual({ success: true, affected: 2, message: '2 contatos excluídos com sucesso.' });
    const after = await page(cookie, 'page=1');
    expect(names(after)).toEqual(['Bruno']);
    expect(after.stats.total).toBe(1);
  });

  it('leaves another account’s contacts untouched, whatever ids it is given', async () => {
    const a = await accountWith([
      ['Ana', ['vip']],
      ['Bruno', ['vip']],
    ]);
    const b = await accountWith([['Carla', []]]);
    const snapshot = async () => (await call(a.cookie, 'GET', '/api/contacts')).json();
    const before = await snapshot();
    for (const body of [
      { action: 'tag', ids: [a.ids.Ana, b.ids.Carla], tag: 'roubado' },
      { action: 'untag', ids: [a.ids.Ana, a.ids.Bruno], tag: 'vip' },
      { action: 'delete', ids: [a.ids.Ana, a.ids.Bruno] },
    ]) {
      const res = await call(b.cookie, 'POST', '/api/contacts/bulk', body);
      expect(res.statusCode, res.body).toBe(200);
      // Only B's own contact (in the first call) is counted.
      expect(res.json().affected).toBe(body.ids.includes(b.ids.Carla) ? 1 : 0);
      expect(res.body).not.toContain(a.ids.Ana);
    }
    expect(await snapshot()).toEqual(before);
    expect(await tagsOf(a.cookie)).toEqual([{ tag: 'vip', count: 2 }]);
    expect(await tagsOf(b.cookie)).toEqual([{ tag: 'roubado', count: 1 }]);
  });

  it('refuses, in Portuguese, no ids, too many ids, a missing or bad tag, and an unknown action', async () => {
    const { cookie, ids } = await accountWith([['Ana', []]]);
    const refused = async (body: object, message: string) => {
      const res = await call(cookie, 'POST', '/api/contacts/bulk', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.json().message).toBe(message);
    };
    await refused({ action: 'delete', ids: [] }, contactsMsg.bulkIdsRequired);
    await refused({ action: 'delete' }, contactsMsg.bulkIdsRequired);
    const tooMany = Array.from({ length: CONTACTS_BULK_MAX + 1 }, () => ids.Ana);
    await refused({ action: 'delete', ids: tooMany }, contactsMsg.bulkTooMany(CONTACTS_BULK_MAX));
    expect(contactsMsg.bulkTooMany(CONTACTS_BULK_MAX)).toBe('Selecione no máximo 1.000 contatos por vez.');
    await refused({ action: 'tag', ids: [ids.Ana] }, contactsMsg.bulkTagRequired);
    await refused({ action: 'untag', ids: [ids.Ana], tag: '   ' }, contactsMsg.bulkTagRequired);
    await refused({ action: 'tag', ids: [ids.Ana], tag: 'a,b' }, contactsMsg.bulkTagComma);
    await refused({ action: 'tag', ids: [ids.Ana], tag: 'x'.repeat(51) }, contactsMsg.bulkTagTooLong);
    await refused({ action: 'archive', ids: [ids.Ana] }, contactsMsg.bulkActionInvalid);
    await refused({ action: 'delete', ids: ['nao-e-um-id'] }, 'Identificador inválido.');
    // At the limit it is accepted (the same id a thousand times is one contact).
    const atLimit = await call(cookie, 'POST', '/api/contacts/bulk', {
      action: 'tag',
      ids: tooMany.slice(1),
      tag: 'lote',
    });
    expect(atLimit.json()).toMatchObject({ success: true, affected: 1 });
  });
});
