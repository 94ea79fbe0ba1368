import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type AudienceSummary, campaignMsg } from '../../../contract/campaigns';
import { groupsMsg } from '../../../contract/contacts';
import { rowsOf } from '../../db/rows';
import { contacts, groups } from '../../db/schema';
import { simulatorAppPerFile } from '../../testing/app-per-file';
import { apiCall, connectSimulator, newCustomer, waitFor } from '../../testing/test-app';

const ctx = simulatorAppPerFile();

/**
 * An account with one contact or group of each kind the planner treats apart: a vip who receives,
 * a vip who opted out, a lead known to have no WhatsApp, an inactive vip (not an audience member at
 * all), one without tags; a linked group, a group without a WhatsApp id, an inactive linked group.
 */
async function seededAccount() {
  const { user, cookie } = await newCustomer(ctx);
  const db = ctx.database.db;
  await db.insert(contacts).values([
    { userId: user.id, name: 'Ana', phone: '+5521990000001', tags: ['vip'] },
    { userId: user.id, name: 'Bruno', phone: '+5521990000003', tags: ['vip'], optedOut: true },
    { userId: user.id, name: 'Carla', phone: '+5521990000005', tags: ['lead'], isWhatsappActive: false },
    { userId: user.id, name: 'Davi', phone: '+5521990000007', tags: ['vip'], isActive: false },
    { userId: user.id, name: 'Eva', phone: '+5521990000009', tags: [] },
  ]);
  await db.insert(groups).values([
    { userId: user.id, name: 'Clientes', whatsappGroupId: '120363000000000501@g.us', membersCount: 40 },
    { userId: user.id, name: 'Manual', whatsappGroupId: '', membersCount: 12 },
    { userId: user.id, name: 'Antigo', whatsappGroupId: '120363000000000502@g.us', isActive: false },
  ]);
  return { user, cookie };
}

const audience = async (cookie: string, query: string): Promise<AudienceSummary> => {
  const res = await apiCall(ctx, 'GET', `/api/campaigns/audience?${query}`, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** The rows a start wrote, as the audience summary counts them. */
async function startedRows(campaignId: string): Promise<AudienceSummary> {
  const rows = rowsOf<{ kind: string; status: string; error: string | null; n: number }>(
    await ctx.database.db.execute(sql`
      select kind, status, error, count(*)::int as n from campaign_recipients
      where campaign_id = ${campaignId} group by kind, status, error`),
  );
  const summary: AudienceSummary = { total: 0, recipients: 0, contacts: 0, groups: 0, skipped: 0, skippedReasons: [] };
  for (const r of rows) {
    summary.total += r.n;
    if (r.status === 'queued') {
      summary.recipients += r.n;
      summary[r.kind === 'group' ? 'groups' : 'contacts'] += r.n;
    } else {
      summary.skipped += r.n;
      summary.skippedReasons.push({ reason: r.error ?? '', count: r.n });
    }
  }
  summary.skippedReasons.sort((x, y) => y.count - x.count || x.reason.localeCompare(y.reason));
  return summary;
}

const R = campaignMsg.reason;
/** The skip reasons in the order the summary lists them. */
const bySkippedReason = (reasons: AudienceSummary['skippedReasons']) =>
  reasons.sort((x, y) => x.reason.localeCompare(y.reason));

describe('GET /api/campaigns/audience', () => {
  it('counts who each audience would reach, and who would be skipped and why, exactly as a start writes it', async () => {
    const { cookie } = await seededAccount();
    const cases: Array<[query: string, body: object, expected: AudienceSummary]> = [
      [
        'targetType=all',
        { targetType: 'all' },
        {
          total: 6,
          recipients: 3,
          contacts: 2,
          groups: 1,
          skipped: 3,
          skippedReasons: bySkippedReason([
            { reason: R.groupNotLinked, count: 1 },
            { reason: R.noWhatsapp, count: 1 },
            { reason: R.optedOut, count: 1 },
          ]),
        },
      ],
      [
        'targetType=contacts&tags=vip',
        { targetType: 'contacts', targetTags: ['vip'] },
        {
          total: 2,
          recipients: 1,
          contacts: 1,
          groups: 0,
          skipped: 1,
          skippedReasons: [{ reason: R.optedOut, count: 1 }],
        },
      ],
      [
        'targetType=contacts&tags=vip&tags=lead',
        { targetType: 'contacts', targetTags: ['vip', 'lead'] },
        {
          total: 3,
          recipients: 1,
          contacts: 1,
          groups: 0,
          skipped: 2,
          skippedReasons: bySkippedReason([
            { reason: R.noWhatsapp, count: 1 },
            { reason: R.optedOut, count: 1 },
          ]),
        },
      ],
      [
        'targetType=contacts',
        { targetType: 'contacts' },
        {
          total: 4,
          recipients: 2,
          contacts: 2,
          groups: 0,
          skipped: 2,
          skippedReasons: bySkippedReason([
            { reason: R.noWhatsapp, count: 1 },
            { reason: R.optedOut, count: 1 },
          ]),
        },
      ],
      [
        'targetType=groups&groups=clientes',
        { targetType: 'groups', targetGroups: ['Clientes'] },
        { total: 1, recipients: 1, contacts: 0, groups: 1, skipped: 0, skippedReasons: [] },
      ],
    ];
    for (const [query, body, expected] of cases) {
      expect(await audience(cookie, query), query).toEqual(expected);
      const created = await apiCall(ctx, 'POST', '/api/campaigns', {
        cookie,
        payload: { name: query, message: 'Oi {{nome}}', ...body },
      });
      expect(created.statusCode, created.body).toBe(200);
      const sent = await apiCall(ctx, 'POST', `/api/campaigns/${created.json().id}/send`, { cookie });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(await startedRows(created.json().id), `${query}: what the start wrote`).toEqual(expected);
    }
    // An inactive group, a group named but missing, a tag nobody has, no group at all: no one.
    const nobody = { total: 0, recipients: 0, contacts: 0, groups: 0, skipped: 0, skippedReasons: [] };
    expect(await audience(cookie, 'targetType=groups&groups=Antigo&groups=Inexistente')).toEqual(nobody);
    expect(await audience(cookie, 'targetType=contacts&tags=ninguem')).toEqual(nobody);
    expect(await audience(cookie, 'targetType=groups')).toEqual(nobody);
  });

  it('counts only the caller’s contacts and groups, and answers every account the same way without a query', async () => {
    await seededAccount();
    const { cookie } = await newCustomer(ctx);
    const empty = { total: 0, recipients: 0, contacts: 0, groups: 0, skipped: 0, skippedReasons: [] };
    expect(await audience(cookie, '')).toEqual(empty);
    expect(await audience(cookie, 'targetType=groups&groups=Clientes')).toEqual(empty);
    expect(await audience(cookie, 'targetType=contacts&tags=vip')).toEqual(empty);
  });

  it('refuses an unknown audience in Portuguese', async () => {
    const { cookie } = await newCustomer(ctx);
    const res = await apiCall(ctx, 'GET', '/api/campaigns/audience?targetType=todos', { cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/\p{L}{3}/u);
  });
});

describe('a campaign aimed at a group without a WhatsApp id', () => {
  it('is refused when saved, with a reason naming the group; once the group is linked it is accepted', async () => {
    const { user, cookie } = await seededAccount();
    const refused = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie,
      payload: {
        name: 'Grupo manual',
        message: 'Oi',
        targetType: 'groups',
        targetGroups: ['Clientes', 'manual'],
        status: 'draft',
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(groupsMsg.notLinkedTarget(['Manual']));
    expect(refused.json().message).toBe(
      'O grupo "Manual" não está vinculado a um grupo do WhatsApp e não pode receber campanhas. Sincronize os grupos na página Grupos ou informe o ID do grupo no WhatsApp.',
    );
    expect(refused.json().fieldErrors).toEqual({ targetGroups: groupsMsg.notLinkedTarget(['Manual']) });

    // Editing a draft to aim at it is refused the same way.
    const draft = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie,
      payload: {
        name: 'Rascunho',
        message: 'Oi',
        targetType: 'groups',
        targetGroups: ['Clientes'],
      },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const edit = await apiCall(ctx, 'PUT', `/api/campaigns/${draft.json().id}`, {
      cookie,
      payload: {
        targetType: 'groups',
        targetGroups: ['Manual'],
      },
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe(groupsMsg.notLinkedTarget(['Manual']));

    // Several are all named.
    await ctx.database.db.insert(groups).values({ userId: user.id, name: 'Outro', whatsappGroupId: '' });
    const two = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie,
      payload: {
        name: 'Dois',
        message: 'Oi',
        targetType: 'groups',
        targetGroups: ['Outro', 'Manual'],
      },
    });
    expect(two.json().message).toBe(groupsMsg.notLinkedTarget(['Outro', 'Manual']));
    expect(two.json().message).toMatch(/^Os grupos "Outro", "Manual" não estão vinculados/);

    // 'Todos' still reaches the linked groups (the others show as skipped in the count above).
    expect(
      (await apiCall(ctx, 'POST', '/api/campaigns', { cookie, payload: { name: 'Todos', message: 'Oi' } })).statusCode,
    ).toBe(200);

    const [manual] = await ctx.database.db
      .select()
      .from(groups)
      .where(and(eq(groups.userId, user.id), eq(groups.name, 'Manual')));
    const linked = await apiCall(ctx, 'PUT', `/api/groups/${manual.id}`, {
      cookie,
      payload: {
        name: 'Manual',
        whatsappGroupId: '120363000000000503@g.us',
      },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const edited = await apiCall(ctx, 'PUT', `/api/campaigns/${draft.json().id}`, {
      cookie,
      payload: {
        targetType: 'groups',
        targetGroups: ['Manual'],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().targetGroups).toEqual(['Manual']);
  });
});

describe('groups synced from the simulated WhatsApp number', () => {
  it('come with their WhatsApp ids and member counts, sync again without duplicates, and can receive a campaign', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await apiCall(ctx, 'PUT', '/api/settings/whatsapp', {
      cookie,
      payload: {
        autoReconnect: true,
        messageDelay: 1,
        dailyLimit: 1000,
        respectBusinessHours: false,
        businessStart: '09:00',
        businessEnd: '18:00',
      },
    });
    const notYet = await apiCall(ctx, 'POST', '/api/groups/sync', { cookie });
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().message).toBe(groupsMsg.connectToSync);

    const driver = await connectSimulator(ctx, user.id, cookie);
    const first = await apiCall(ctx, 'POST', '/api/groups/sync', { cookie });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ success: true, created: 3, updated: 0, message: groupsMsg.syncDone(3, 0) });
    const remote = await driver.listGroups();
    const list = (await apiCall(ctx, 'GET', '/api/groups', { cookie })).json() as Array<{
      name: string;
      whatsappGroupId: string;
      membersCount: number;
    }>;
    expect(list.map((g) => [g.name, g.whatsappGroupId, g.membersCount]).sort()).toEqual(
      remote.map((g) => [g.name, g.id, g.membersCount]).sort(),
    );
    expect(list.every((g) => g.membersCount > 0)).toBe(true);
    expect((await apiCall(ctx, 'POST', '/api/groups/sync', { cookie })).json()).toMatchObject({
      created: 0,
      updated: 0,
    });
    expect((await apiCall(ctx, 'GET', '/api/groups', { cookie })).json()).toHaveLength(3);

    const target = list[0];
    expect(await audience(cookie, `targetType=groups&groups=${encodeURIComponent(target.name)}`)).toMatchObject({
      recipients: 1,
      groups: 1,
    });
    const created = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie,
      payload: {
        name: 'Para o grupo',
        message: 'Olá, grupo!',
        targetType: 'groups',
        targetGroups: [target.name],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await apiCall(ctx, 'POST', `/api/campaigns/${created.json().id}/send`, { cookie })).statusCode).toBe(200);
    await waitFor(
      async () => (await apiCall(ctx, 'GET', `/api/campaigns/${created.json().id}`, { cookie })).json().status,
      (s) => s === 'completed',
      10_000,
    );
    const outbox = (driver as unknown as { outbox: Array<{ to: string }> }).outbox;
    expect(outbox.map((m) => m.to)).toEqual([target.whatsappGroupId]);
  });
});
