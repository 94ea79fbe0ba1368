import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../db/schema';
import {
  autoReplies,
  campaigns,
  connections,
  contacts,
  conversations,
  groups,
  mediaUploads,
  queues,
  quickReplies,
  savedMessages,
  teamInvitations,
} from '../db/schema';
import { seedDemoWorkspace } from '../modules/auth';
import { recordActivity } from '../records/activity';
import { notify } from '../records/notify';
import { insertConnection } from '../testing/connections';
import { EXAMPLES } from '../testing/route-examples';
import { type ApiMethod, apiCall, createTestApp, createUser, loginAs, type TestContext } from '../testing/test-app';

/**
 * Role and tenant checks over every API route the app registers, so a new route is covered the
 * moment it exists. Routes that take an id of a customer's resource must be listed in
 * `crossTenantCases`, which makes another account's id answer 404.
 */
let ctx: TestContext;
const cookies: Record<string, string> = {};
let owner: UserRow;

const ownerContactId = async (ownerId: string) => {
  const [row] = await ctx.database.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.userId, ownerId));
  return row.id;
};
const ownerGroupId = async (ownerId: string) => {
  const [row] = await ctx.database.db.select({ id: groups.id }).from(groups).where(eq(groups.userId, ownerId));
  return row.id;
};
const ownerCampaignId = async (ownerId: string) => {
  const [row] = await ctx.database.db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.userId, ownerId));
  return row.id;
};
const ownerSavedMessageId = async (ownerId: string) => {
  const [row] = await ctx.database.db
    .insert(savedMessages)
    .values({ userId: ownerId, title: 'Mensagem do dono', content: 'Oi' })
    .returning({ id: savedMessages.id });
  return row.id;
};
const ownerQuickReplyId = async (ownerId: string) => {
  const [row] = await ctx.database.db
    .insert(quickReplies)
    .values({ userId: ownerId, shortcut: `r${Math.random().toString(36).slice(2, 8)}`, text: 'Oi' })
    .returning({ id: quickReplies.id });
  return row.id;
};
const ownerQueueId = async (ownerId: string) => {
  const [row] = await ctx.database.db
    .insert(queues)
    .values({ userId: ownerId, name: `Fila ${Math.random().toString(36).slice(2, 8)}` })
    .returning({ id: queues.id });
  return row.id;
};
const ownerUploadId = async (ownerId: string) => {
  const [row] = await ctx.database.db
    .insert(mediaUploads)
    .values({ userId: ownerId, fileName: 'dono.png', mimeType: 'image/png', size: 1, data: Buffer.from([0]) })
    .returning({ id: mediaUploads.id });
  return row.id;
};
const ownerAutoReplyId = async (ownerId: string) => {
  const [row] = await ctx.database.db
    .insert(autoReplies)
    .values({ userId: ownerId, trigger: `dono-${Date.now()}`, response: 'Oi' })
    .returning({ id: autoReplies.id });
  return row.id;
};
/** One of the owner's WhatsApp numbers (added once, then reused). */
const ownerConnectionId = async (ownerId: string) => {
  const [row] = await ctx.database.db
    .select({ id: connections.id })
    .from(connections)
    .where(eq(connections.userId, ownerId))
    .limit(1);
  return row?.id ?? (await insertConnection(ctx.database.db, ownerId, 'personal')).id;
};
/** A conversation of the owner's, with a number no other account has written from. */
const ownerConversationPhone = async (ownerId: string) => {
  const [row] = await ctx.database.db
    .insert(conversations)
    .values({
      userId: ownerId,
      phone: '5511987650001',
      connectionId: await ownerConnectionId(ownerId),
      lastMessageText: 'Oi',
    })
    .onConflictDoUpdate({
      target: [conversations.userId, conversations.phone, conversations.connectionId],
      set: { unread: 1 },
    })
    .returning({ phone: conversations.phone });
  return row.phone;
};
/** A member of the owner's team, and an invitation to it still open. */
const ownerMemberId = async (ownerId: string) =>
  (await createUser(ctx, { accountType: 'regular', accountId: ownerId, teamRole: 'agent' })).id;
const ownerInvitationId = async (ownerId: string) => {
  const [row] = await ctx.database.db
    .insert(teamInvitations)
    .values({
      userId: ownerId,
      name: 'Convidada',
      email: `convidada${Date.now()}@example.com`,
      role: 'agent',
      tokenHash: `hash-${Math.random()}`,
      expiresAt: new Date(Date.now() + 3_600_000),
    })
    .returning({ id: teamInvitations.id });
  return row.id;
};
const crossTenantCases: Record<string, (ownerId: string) => Promise<{ id: string; payload?: object }>> = {
  'PUT /api/contacts/:id': async (o) => ({ id: await ownerContactId(o), payload: { name: 'X', phone: '21998765432' } }),
  'DELETE /api/contacts/:id': async (o) => ({ id: await ownerContactId(o) }),
  'PUT /api/groups/:id': async (o) => ({ id: await ownerGroupId(o), payload: { name: 'X' } }),
  'DELETE /api/groups/:id': async (o) => ({ id: await ownerGroupId(o) }),
  'GET /api/groups/:id/members': async (o) => ({ id: await ownerGroupId(o) }),
  'GET /api/campaigns/:id': async (o) => ({ id: await ownerCampaignId(o) }),
  'PUT /api/campaigns/:id': async (o) => ({ id: await ownerCampaignId(o), payload: { name: 'X' } }),
  'DELETE /api/campaigns/:id': async (o) => ({ id: await ownerCampaignId(o) }),
  'POST /api/campaigns/:id/send': async (o) => ({ id: await ownerCampaignId(o), payload: {} }),
  'POST /api/campaigns/:id/pause': async (o) => ({ id: await ownerCampaignId(o), payload: {} }),
  'POST /api/campaigns/:id/resume': async (o) => ({ id: await ownerCampaignId(o), payload: {} }),
  'POST /api/campaigns/:id/cancel': async (o) => ({ id: await ownerCampaignId(o), payload: {} }),
  'POST /api/campaigns/:id/duplicate': async (o) => ({ id: await ownerCampaignId(o), payload: {} }),
  'POST /api/campaigns/:id/test': async (o) => ({ id: await ownerCampaignId(o), payload: {} }),
  'GET /api/campaigns/:id/recipients': async (o) => ({ id: await ownerCampaignId(o) }),
  'GET /api/campaigns/:id/recipients/export': async (o) => ({ id: await ownerCampaignId(o) }),
  'GET /api/campaigns/:id/numbers': async (o) => ({ id: await ownerCampaignId(o) }),
  'GET /api/campaigns/:id/forecast': async (o) => ({ id: await ownerCampaignId(o) }),
  'PUT /api/bot-config/auto-replies/:id': async (o) => ({
    id: await ownerAutoReplyId(o),
    payload: EXAMPLES['PUT /api/bot-config/auto-replies/:id'](),
  }),
  'DELETE /api/bot-config/auto-replies/:id': async (o) => ({ id: await ownerAutoReplyId(o) }),
  'GET /api/connections/:id': async (o) => ({ id: await ownerConnectionId(o) }),
  'PATCH /api/connections/:id': async (o) => ({ id: await ownerConnectionId(o), payload: { label: 'X' } }),
  'DELETE /api/connections/:id': async (o) => ({ id: await ownerConnectionId(o) }),
  'POST /api/connections/:id/connect': async (o) => ({ id: await ownerConnectionId(o), payload: {} }),
  'POST /api/connections/:id/disconnect': async (o) => ({ id: await ownerConnectionId(o), payload: {} }),
  'GET /api/messages/:id': async (o) => ({ id: await ownerSavedMessageId(o) }),
  'PUT /api/messages/:id': async (o) => ({ id: await ownerSavedMessageId(o), payload: { title: 'X', content: 'Y' } }),
  'DELETE /api/messages/:id': async (o) => ({ id: await ownerSavedMessageId(o) }),
  'GET /api/uploads/:id': async (o) => ({ id: await ownerUploadId(o) }),
  'PUT /api/quick-replies/:id': async (o) => ({
    id: await ownerQuickReplyId(o),
    payload: { shortcut: 'x', text: 'Y' },
  }),
  'DELETE /api/quick-replies/:id': async (o) => ({ id: await ownerQuickReplyId(o) }),
  'PUT /api/queues/:id': async (o) => ({ id: await ownerQueueId(o), payload: { name: 'Fila nova' } }),
  'DELETE /api/queues/:id': async (o) => ({ id: await ownerQueueId(o) }),
  'GET /api/conversations/:phone': async (o) => ({ id: await ownerConversationPhone(o) }),
  'POST /api/conversations/:phone/messages': async (o) => ({
    id: await ownerConversationPhone(o),
    payload: { text: 'Oi' },
  }),
  'POST /api/conversations/:phone/takeover': async (o) => ({ id: await ownerConversationPhone(o) }),
  'POST /api/conversations/:phone/release': async (o) => ({ id: await ownerConversationPhone(o) }),
  'POST /api/conversations/:phone/assign': async (o) => ({
    id: await ownerConversationPhone(o),
    payload: { memberId: null },
  }),
  'POST /api/conversations/:phone/status': async (o) => ({
    id: await ownerConversationPhone(o),
    payload: { status: 'resolved' },
  }),
  'POST /api/conversations/:phone/notes': async (o) => ({
    id: await ownerConversationPhone(o),
    payload: { text: 'Nota da equipe' },
  }),
  'PATCH /api/team/:id': async (o) => ({ id: await ownerMemberId(o), payload: { isActive: false } }),
  'DELETE /api/team/invitations/:id': async (o) => ({ id: await ownerInvitationId(o) }),
  // A member with a second factor: the reset would succeed, were it the owner's own account.
  'POST /api/team/:id/reset-two-factor': async (o) => ({
    id: (await createUser(ctx, { accountType: 'regular', accountId: o, teamRole: 'agent', twoFactorAt: new Date() }))
      .id,
  }),
};

const sampleParams = (url: string) => url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');

beforeAll(async () => {
  ctx = await createTestApp();
  const roles = {
    admin: { accountType: 'admin', planType: 'admin' },
    customer: {},
    other: {},
    demo: { accountType: 'demo', planType: 'demo', demoExpiresAt: new Date(Date.now() + 3_600_000) },
    pending: { accountType: 'pending', isActive: false },
    inactive: { accountType: 'active', isActive: false },
  } as const;
  for (const [name, overrides] of Object.entries(roles)) {
    const u = await createUser(ctx, overrides);
    if (name === 'customer') owner = u;
    cookies[name] = await loginAs(ctx, u);
  }
  await seedDemoWorkspace(ctx.database.db, owner.id);
});
afterAll(() => ctx.close());

const routes = () => ctx.app.deps.routes;
const inject = (method: string, url: string, cookie?: string) =>
  apiCall(ctx, method as ApiMethod, sampleParams(url), {
    cookie,
    payload: method === 'GET' || method === 'DELETE' ? undefined : {},
  });

describe('every route declares who may call it', () => {
  it('has routes to check', () => {
    expect(routes().length).toBeGreaterThan(8);
    expect(routes().filter((r) => r.access === 'admin').length).toBeGreaterThanOrEqual(4);
  });

  it('refuses admin routes to everyone but admins', async () => {
    for (const r of routes().filter((x) => x.access === 'admin')) {
      expect((await inject(r.method, r.url)).statusCode, `${r.method} ${r.url} anonymous`).toBe(401);
      for (const role of ['customer', 'demo', 'pending', 'inactive']) {
        const res = await inject(r.method, r.url, cookies[role]);
        expect(res.statusCode, `${r.method} ${r.url} as ${role}`).toBe(403);
      }
    }
  });

  it('refuses customer routes to anonymous, pending and deactivated accounts, and writes to demos', async () => {
    for (const r of routes().filter((x) => x.access === 'customer')) {
      const label = `${r.method} ${r.url}`;
      expect((await inject(r.method, r.url)).statusCode, `${label} anonymous`).toBe(401);
      expect((await inject(r.method, r.url, cookies.pending)).json().code, `${label} pending`).toBe('ACCOUNT_PENDING');
      expect((await inject(r.method, r.url, cookies.inactive)).json().code, `${label} inactive`).toBe(
        'ACCOUNT_INACTIVE',
      );
      if (r.method !== 'GET') {
        expect((await inject(r.method, r.url, cookies.demo)).json().code, `${label} demo`).toBe('DEMO_READ_ONLY');
      }
    }
  });

  it('refuses session routes to anonymous callers and writes to demos', async () => {
    for (const r of routes().filter((x) => x.access === 'session')) {
      expect((await inject(r.method, r.url)).statusCode, `${r.method} ${r.url}`).toBe(401);
      if (r.method !== 'GET') expect((await inject(r.method, r.url, cookies.demo)).statusCode).toBe(403);
    }
  });
});

describe('no customer route shows or touches another account’s data', () => {
  it('every customer route with an id has a cross-tenant case', () => {
    const withId = routes().filter((r) => r.access !== 'admin' && r.access !== 'public' && r.url.includes(':'));
    for (const r of withId) expect(crossTenantCases, `${r.method} ${r.url}`).toHaveProperty(`${r.method} ${r.url}`);
  });

  it('answers 404 when another account uses an owner’s id', async () => {
    for (const [key, make] of Object.entries(crossTenantCases)) {
      const [method, url] = key.split(' ');
      const { id, payload } = await make(owner.id);
      const res = await ctx.app.inject({
        method: method as 'GET',
        url: url.replace(/:\w+/, id),
        payload,
        headers: { cookie: cookies.other },
      });
      expect(res.statusCode, key).toBe(404);
    }
  });

  it('lists of another account never include the owner’s rows', async () => {
    const db = ctx.database.db;
    const ownerRows = [
      ...(await db
        .select({ id: contacts.id, name: contacts.name })
        .from(contacts)
        .where(eq(contacts.userId, owner.id))),
      ...(await db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.userId, owner.id))),
      ...(await db
        .select({ id: campaigns.id, name: campaigns.name })
        .from(campaigns)
        .where(eq(campaigns.userId, owner.id))),
    ];
    expect(ownerRows.length).toBeGreaterThan(5);
    const asOwner = await inject('GET', '/api/campaigns', cookies.customer);
    expect(asOwner.body).toContain(ownerRows.at(-1)?.id);
    for (const r of routes().filter((x) => x.access === 'customer' && x.method === 'GET' && !x.url.includes(':'))) {
      const res = await inject('GET', r.url, cookies.other);
      expect(res.statusCode, r.url).toBeLessThan(500);
      for (const row of ownerRows) {
        expect(res.body, `${r.url} leaks ${row.name}`).not.toContain(row.id);
        expect(res.body, `${r.url} leaks ${row.name}`).not.toContain(row.name);
      }
    }
  });

  it('another account never reads nor marks the owner’s notifications, activity or presence', async () => {
    const db = ctx.database.db;
    const secret = 'Aviso privado do dono';
    await notify(db, ctx.app.log, owner.id, { kind: 'contacts_imported', title: secret, body: secret });
    await recordActivity(db, ctx.app.log, { userId: owner.id, actorId: owner.id, kind: 'bot_changed', detail: secret });
    await inject('GET', '/api/auth/me', cookies.customer); // the owner is online
    const ownList = (await inject('GET', '/api/notifications', cookies.customer)).json();
    const ownerNotice = ownList.notifications.find((n: { title: string }) => n.title === secret);
    expect(ownerNotice).toBeDefined();
    const ownerUnread = ownList.unread;
    expect(ownerUnread).toBeGreaterThan(0);

    for (const url of [
      '/api/notifications',
      '/api/notifications/unread-count',
      '/api/activity',
      `/api/activity?userId=${owner.id}`,
      '/api/users/active',
      '/api/users/online-count',
    ]) {
      const res = await inject('GET', url, cookies.other);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain(secret);
      expect(res.body, url).not.toContain(owner.id);
      expect(res.body, url).not.toContain(ownerNotice.id);
    }
    expect((await inject('GET', '/api/users/online-count', cookies.other)).json().totalActive).toBe(1);

    for (const payload of [{ ids: [ownerNotice.id] }, {}]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/notifications/read',
        payload,
        headers: { cookie: cookies.other },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().marked).toBe(0);
    }
    const after = (await inject('GET', '/api/notifications', cookies.customer)).json();
    expect(after.unread).toBe(ownerUnread);
    expect(after.notifications.find((n: { id: string }) => n.id === ownerNotice.id).read).toBe(false);
  });
});
