import { describe, expect, it } from 'vitest';
import { groupsMsg } from '../../../contract/contacts';
import { appPerFile } from '../../testing/app-per-file';
import { FakeDrivers } from '../../testing/fake-driver';
import { type ApiMethod, apiCall, createTestApp, newCustomer } from '../../testing/test-app';

const ctx = appPerFile(() => createTestApp({}, undefined, { drivers }));
const drivers = new FakeDrivers();

const account = () => newCustomer(ctx);
const call = (cookie: string, method: ApiMethod, url: string, payload?: object) =>
  apiCall(ctx, method, url, { payload, cookie });

describe('groups CRUD', () => {
  it('creates, lists by name, updates and deletes', async () => {
    const { cookie } = await account();
    const b = await call(cookie, 'POST', '/api/groups', {
      name: ' Vendas ',
      whatsappGroupId: '',
      membersCount: 12,
      isActive: true,
    });
    expect(b.json()).toMatchObject({
      success: true,
      message: groupsMsg.created,
      group: { name: 'Vendas', membersCount: 12 },
    });
    await call(cookie, 'POST', '/api/groups', { name: 'atendimento' });
    expect((await call(cookie, 'GET', '/api/groups')).json().map((g: { name: string }) => g.name)).toEqual([
      'atendimento',
      'Vendas',
    ]);
    const id = b.json().group.id;
    const up = await call(cookie, 'PUT', `/api/groups/${id}`, {
      name: 'Vendas SP',
      membersCount: '7',
      isActive: false,
    });
    expect(up.json()).toMatchObject({
      message: groupsMsg.updated,
      group: { name: 'Vendas SP', membersCount: 7, isActive: false },
    });
    expect((await call(cookie, 'DELETE', `/api/groups/${id}`)).json()).toMatchObject({ message: groupsMsg.deleted });
    expect((await call(cookie, 'DELETE', `/api/groups/${id}`)).statusCode).toBe(404);
  });

  it('requires a name, keeps names unique per account, and turns an invalid member count into 0', async () => {
    const { cookie } = await account();
    const noName = await call(cookie, 'POST', '/api/groups', { name: '  ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe(groupsMsg.nameRequired);
    for (const membersCount of [-3, 2.5, 'abc', null]) {
      const res = await call(cookie, 'POST', '/api/groups', { name: `G ${String(membersCount)}`, membersCount });
      expect(res.json().group.membersCount, String(membersCount)).toBe(0);
    }
    await call(cookie, 'POST', '/api/groups', { name: 'Clientes' });
    const dup = await call(cookie, 'POST', '/api/groups', { name: 'CLIENTES' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(groupsMsg.duplicateName);
    const other = await account();
    expect((await call(other.cookie, 'POST', '/api/groups', { name: 'Clientes' })).statusCode).toBe(200);
  });

  it('refuses another account’s group ids', async () => {
    const a = await account();
    const b = await account();
    const id = (await call(a.cookie, 'POST', '/api/groups', { name: 'Privado' })).json().group.id;
    expect((await call(b.cookie, 'PUT', `/api/groups/${id}`, { name: 'X' })).statusCode).toBe(404);
    expect((await call(b.cookie, 'DELETE', `/api/groups/${id}`)).statusCode).toBe(404);
    drivers.connect(b.user.id);
    expect((await call(b.cookie, 'GET', `/api/groups/${id}/members`)).statusCode).toBe(404);
  });
});

describe('groups through the WhatsApp driver', () => {
  it('asks to connect WhatsApp first', async () => {
    const { user, cookie } = await account();
    const sync = await call(cookie, 'POST', '/api/groups/sync');
    expect(sync.statusCode).toBe(409);
    expect(sync.json().message).toBe(groupsMsg.connectToSync);
    const id = (await call(cookie, 'POST', '/api/groups', { name: 'G', whatsappGroupId: '1@g.us' })).json().group.id;
    const members = await call(cookie, 'GET', `/api/groups/${id}/members`);
    expect(members.json().message).toBe(groupsMsg.connectToExport);
    drivers.connect(user.id).connected = false;
    expect((await call(cookie, 'POST', '/api/groups/sync')).statusCode).toBe(409);
  });

  it('syncs the groups of the connected number: new ones created, known ones updated, names kept unique', async () => {
    const { user, cookie } = await account();
    const driver = drivers.connect(user.id);
    await call(cookie, 'POST', '/api/groups', { name: 'Família' });
    driver.groups = [
      { id: '111@g.us', name: 'Família', membersCount: 8 },
      { id: '222@g.us', name: 'Clientes VIP', membersCount: 40 },
    ];
    const first = await call(cookie, 'POST', '/api/groups/sync');
    expect(first.json()).toMatchObject({ success: true, created: 2, updated: 0, message: groupsMsg.syncDone(2, 0) });
    driver.groups[1].membersCount = 41;
    expect((await call(cookie, 'POST', '/api/groups/sync')).json()).toMatchObject({ created: 0, updated: 1 });
    const list = (await call(cookie, 'GET', '/api/groups')).json();
    expect(
      list.map((g: { name: string; whatsappGroupId: string; membersCount: number }) => [
        g.name,
        g.whatsappGroupId,
        g.membersCount,
      ]),
    ).toEqual([
      ['Clientes VIP', '222@g.us', 41],
      ['Família', '', 0],
      ['Família (2)', '111@g.us', 8],
    ]);
  });

  it('exports the real participants of a group as CSV', async () => {
    const { user, cookie } = await account();
    const driver = drivers.connect(user.id);
    driver.participants.set('333@g.us', [
      { id: '5521998765432@s.whatsapp.net', phone: '5521998765432', name: 'Ana', isAdmin: true },
      { id: '123@lid', phone: null, isAdmin: false },
    ]);
    const id = (await call(cookie, 'POST', '/api/groups', { name: 'Loja Centro', whatsappGroupId: '333@g.us' })).json()
      .group.id;
    const res = await call(cookie, 'GET', `/api/groups/${id}/members`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="membros-Loja-Centro.csv"; filename*=UTF-8''membros-Loja%20Centro.csv`,
    );
    expect(
      res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toEqual(['Nome;Telefone;Administrador;Grupo', 'Ana;+5521998765432;Sim;Loja Centro', ';123@lid;Não;Loja Centro']);
    // A name with accents keeps them (RFC 5987), with an ASCII fallback for old clients.
    const accented = (
      await call(cookie, 'POST', '/api/groups', { name: 'Promoções (simulado)', whatsappGroupId: '333@g.us' })
    ).json().group.id;
    const named = await call(cookie, 'GET', `/api/groups/${accented}/members`);
    expect(named.headers['content-disposition']).toBe(
      `attachment; filename="membros-Promocoes-(simulado).csv"; filename*=UTF-8''membros-Promo%C3%A7%C3%B5es%20%28simulado%29.csv`,
    );
    const unlinked = (await call(cookie, 'POST', '/api/groups', { name: 'Manual' })).json().group.id;
    const none = await call(cookie, 'GET', `/api/groups/${unlinked}/members`);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(groupsMsg.noWhatsappId);
  });
});
