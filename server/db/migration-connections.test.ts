import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../contract/connections';
import { migrationFiles, migrationStatements } from '../testing/migration-files';
import { apiCall, createTestApp, newCustomer } from '../testing/test-app';
import { openPglite } from './client';

/**
 * 0016–0017: an account's personal number and Cloud API number, stored the old way (one of each
 * per account), become its first `connections` rows, with their Baileys keys, credentials, lanes
 * and the default chosen by the account's channel. Run on a database holding migrations up to 0015
 * and rows written as the old code wrote them.
 */
const files = migrationFiles;
const statements = migrationStatements;

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
  for (const file of files.filter((f) => f < '0016')) for (const s of statements(file)) await db.exec(s);
});
afterAll(() => db?.close());

const USERS = {
  personal: '11111111-1111-4111-8111-111111111111',
  cloud: '22222222-2222-4222-8222-222222222222',
  both: '33333333-3333-4333-8333-333333333333',
  none: '44444444-4444-4444-8444-444444444444',
};

describe('0016: numbers become connections', () => {
  it('keeps each account’s numbers, keys, credentials and pacing, with the default its channel chose', async () => {
    for (const [name, id] of Object.entries(USERS)) {
      await db.query(
        `insert into users (id, username, email, name, password_hash, account_type, plan_type) values ($1, $2, $3, $4, 'x', 'active', 'basic')`,
        [id, name, `${name}@example.com`, name],
      );
    }
    await db.query(`insert into account_settings (user_id, channel) values ($1, 'cloud')`, [USERS.both]);
    for (const id of [USERS.personal, USERS.both]) {
      await db.query(
        `insert into whatsapp_connections (user_id, driver, active, phone_number) values ($1, 'baileys', true, '+55 11 98765-4321')`,
        [id],
      );
      await db.query(`insert into whatsapp_auth_keys (user_id, key, value) values ($1, 'creds', 'sealed')`, [id]);
    }
    for (const id of [USERS.cloud, USERS.both]) {
      await db.query(
        `insert into whatsapp_business_accounts (user_id, phone_number_id, access_token, webhook_key, verify_token, display_phone_number)
         values ($1, $2, 'tok', $3, 'vt', '551130000000')`,
        [id, `10${id.slice(0, 4)}`, id.replaceAll('-', '')],
      );
    }
    // A key without a connection (left over): dropped.
    await db.query(`insert into whatsapp_auth_keys (user_id, key, value) values ($1, 'creds', 'orphan')`, [USERS.none]);
    await db.query(
      `insert into sending_lanes (user_id, warmup_started_at, last_sent_at) values ($1, '2026-11-20T10:00:00Z', '2026-11-25T10:00:00Z')`,
      [USERS.personal],
    );

    for (const file of files.filter((f) => f >= '0016')) for (const s of statements(file)) await db.exec(s);

    const rows = (
      await db.query<{
        user_id: string;
        kind: string;
        is_default: boolean;
        driver: string | null;
        active: boolean;
        phone_number: string | null;
      }>(`select user_id, kind, is_default, driver, active, phone_number from connections order by user_id, kind`)
    ).rows;
    expect(rows).toEqual([
      {
        user_id: USERS.personal,
        kind: 'personal',
        is_default: true,
        driver: 'baileys',
        active: true,
        phone_number: '+55 11 98765-4321',
      },
      {
        user_id: USERS.cloud,
        kind: 'cloud',
        is_default: true,
        driver: null,
        active: false,
        phone_number: '551130000000',
      },
      {
        user_id: USERS.both,
        kind: 'cloud',
        is_default: true,
        driver: null,
        active: false,
        phone_number: '551130000000',
      },
      {
        user_id: USERS.both,
        kind: 'personal',
        is_default: false,
        driver: 'baileys',
        active: true,
        phone_number: '+55 11 98765-4321',
      },
    ]);
    const keys = (
      await db.query<{ user_id: string; kind: string }>(
        `select k.user_id, c.kind from whatsapp_auth_keys k join connections c on c.id = k.connection_id order by 1`,
      )
    ).rows;
    expect(keys).toEqual([
      { user_id: USERS.personal, kind: 'personal' },
      { user_id: USERS.both, kind: 'personal' },
    ]);
    const credentials = (
      await db.query<{ user_id: string; kind: string }>(
        `select b.user_id, c.kind from whatsapp_business_accounts b join connections c on c.id = b.connection_id order by 1`,
      )
    ).rows;
    expect(credentials).toEqual([
      { user_id: USERS.cloud, kind: 'cloud' },
      { user_id: USERS.both, kind: 'cloud' },
    ]);
    const lanes = (
      await db.query<{ kind: string; warmup: string }>(
        `select c.kind, l.warmup_started_at::text as warmup from sending_lanes l join connections c on c.id = l.connection_id`,
      )
    ).rows;
    expect(lanes).toHaveLength(1);
    expect(lanes[0].kind).toBe('personal');
    expect(new Date(lanes[0].warmup).toISOString()).toBe('2026-11-20T10:00:00.000Z');
    const tables = (
      await db.query<{ n: number }>(`select count(*)::int as n from pg_tables where tablename = 'whatsapp_connections'`)
    ).rows;
    expect(tables[0].n).toBe(0);
  });
});

describe('0019: a conversation per number and contact', () => {
  it('puts each conversation and its messages on the number it recorded, else the default; an account without a number gets one', async () => {
    const old = await PGlite.create();
    try {
      for (const file of files.filter((f) => f < '0019')) for (const s of statements(file)) await old.exec(s);
      const [withNumbers, without] = ['55555555-5555-4555-8555-555555555555', '66666666-6666-4666-8666-666666666666'];
      for (const [name, id] of [
        ['numbers', withNumbers],
        ['nonumber', without],
      ]) {
        await old.query(
          `insert into users (id, username, email, name, password_hash, account_type, plan_type) values ($1, $2, $3, $4, 'x', 'active', 'premium')`,
          [id, name, `${name}@example.com`, name],
        );
      }
      const number = async (label: string, isDefault: boolean) =>
        (
          await old.query<{ id: string }>(
            `insert into connections (user_id, kind, label, is_default) values ($1, 'personal', $2, $3) returning id`,
            [withNumbers, label, isDefault],
          )
        ).rows[0].id;
      const sales = await number('Vendas', true);
      const support = await number('Suporte', false);
      // As 0018's code wrote them: one conversation per contact, the number it last heard on (or none).
      await old.query(
        `insert into conversations (user_id, phone, connection_id, last_inbound_at) values
           ($1, '5511900000001', $2, now()), ($1, '5511900000002', null, now()), ($3, '5511900000003', null, now())`,
        [withNumbers, support, without],
      );
      await old.query(
        `insert into conversation_messages (user_id, phone, direction, source, text, status) values
           ($1, '5511900000001', 'in', 'contact', 'oi', 'received'), ($1, '5511900000001', 'out', 'bot', 'olá', 'sent'),
           ($1, '5511900000002', 'in', 'contact', 'oi', 'received'), ($2, '5511900000003', 'in', 'contact', 'oi', 'received')`,
        [withNumbers, without],
      );
      for (const file of files.filter((f) => f >= '0019')) for (const s of statements(file)) await old.exec(s);

      const added = (
        await old.query<{ id: string; is_default: boolean; kind: string }>(
          `select id, is_default, kind from connections where user_id = $1`,
          [without],
        )
      ).rows;
      expect(added).toEqual([{ id: expect.any(String), is_default: true, kind: 'personal' }]);
      const conversations = (
        await old.query<{ phone: string; connection_id: string }>(
          `select phone, connection_id from conversations order by phone`,
        )
      ).rows;
      expect(conversations).toEqual([
        { phone: '5511900000001', connection_id: support },
        { phone: '5511900000002', connection_id: sales },
        { phone: '5511900000003', connection_id: added[0].id },
      ]);
      const messages = (
        await old.query<{ phone: string; connection_id: string; n: number }>(
          `select phone, connection_id, count(*)::int as n from conversation_messages group by 1, 2 order by 1`,
        )
      ).rows;
      expect(messages).toEqual([
        { phone: '5511900000001', connection_id: support, n: 2 },
        { phone: '5511900000002', connection_id: sales, n: 1 },
        { phone: '5511900000003', connection_id: added[0].id, n: 1 },
      ]);
      // The same contact may now have a conversation on each number.
      await old.query(`insert into conversations (user_id, phone, connection_id) values ($1, '5511900000001', $2)`, [
        withNumbers,
        sales,
      ]);
      await expect(
        old.query(`insert into conversations (user_id, phone, connection_id) values ($1, '5511900000001', $2)`, [
          withNumbers,
          sales,
        ]),
      ).rejects.toThrow(/duplicate key/);
    } finally {
      await old.close();
    }
  });
});

describe('0022: sends and inbound messages from before numbers name their number', () => {
  it('go to the number their campaign chose, else the default; the cards then add up to the header', async () => {
    const old = await PGlite.create();
    // Every other migration (later ones too, which the app of today needs): 0022 changes no table,
    // only rows, so the app runs on that database as it ran before 0022.
    for (const file of files.filter((f) => !f.startsWith('0022'))) for (const s of statements(file)) await old.exec(s);
    const ctx = await createTestApp({}, undefined, { database: openPglite(old) });
    try {
      const { user, cookie } = await newCustomer(ctx, { planType: 'premium' });
      const other = await newCustomer(ctx);
      const number = async (userId: string, kind: string, label: string, isDefault: boolean) =>
        (
          await old.query<{ id: string }>(
            `insert into connections (user_id, kind, label, is_default, created_at) values ($1, $2, $3, $4, now() - interval '30 days') returning id`,
            [userId, kind, label, isDefault],
          )
        ).rows[0].id;
      const sales = await number(user.id, 'personal', 'Vendas', true);
      const support = await number(user.id, 'personal', 'Suporte', false);
      const api = await number(user.id, 'cloud', 'API oficial', false);
      const otherDefault = await number(other.user.id, 'personal', 'WhatsApp pessoal', true);
      const campaign = async (userId: string, connectionIds: string[]) =>
        (
          await old.query<{ id: string }>(
            `insert into campaigns (user_id, name, message, status, connection_ids) values ($1, 'Promo', 'Oi', 'paused', $2::uuid[]) returning id`,
            [userId, connectionIds],
          )
        ).rows[0].id;
      const before = await campaign(user.id, []); // from before numbers: no number chosen
      const chose = await campaign(user.id, [support]);
      const theirs = await campaign(other.user.id, []);
      // Rows as the code before numbers wrote them: no connection_id.
      const row = (campaignId: string, userId: string, recipient: string, status: string) =>
        old.query(
          `insert into campaign_recipients (campaign_id, user_id, recipient, status, sent_at, failed_at)
           values ($1, $2, $3, $4, case when $4 in ('sent', 'delivered', 'read') then now() end,
                   case when $4 = 'failed' then now() end)`,
          [campaignId, userId, recipient, status],
        );
      await row(before, user.id, '5511900000001', 'sent');
      await row(before, user.id, '5511900000002', 'delivered');
      await row(before, user.id, '5511900000003', 'read');
      await row(before, user.id, '5511900000004', 'failed');
      await row(before, user.id, '5511900000005', 'queued');
      await row(before, user.id, '5511900000006', 'skipped');
      await row(chose, user.id, '5511900000007', 'sent');
      await row(chose, user.id, '5511900000008', 'read');
      await row(theirs, other.user.id, '5511900000009', 'sent');
      await old.query(
        `insert into whatsapp_inbound_messages (user_id, channel, from_phone, text, provider_message_id) values
           ($1, 'baileys', '5511900000001', 'oi', 'in-1'), ($1, 'simulator', '5511900000002', 'oi', 'in-2'),
           ($1, 'cloud', '5511900000003', 'oi', 'in-3'), ($2, 'cloud', '5511900000009', 'oi', 'in-4')`,
        [user.id, other.user.id],
      );

      const cards = async () => {
        const res = await apiCall(ctx, 'GET', '/api/connections', { cookie });
        expect(res.statusCode).toBe(200);
        const byLabel = new Map((res.json().connections as ConnectionView[]).map((c) => [c.label, c]));
        return Object.fromEntries(
          ['Vendas', 'Suporte', 'API oficial'].map((label) => {
            const c = byLabel.get(label) as ConnectionView;
            return [label, { sent: c.sentToday, failures: c.health.recentFailures, replies: c.health.repliesToday }];
          }),
        );
      };
      const header = (await apiCall(ctx, 'GET', '/api/metrics/today', { cookie })).json().sentToday;
      expect(header).toBe(5);
      // The upgrade's symptom: the header counts five, the cards none.
      expect((await cards()).Vendas).toEqual({ sent: 0, failures: 0, replies: 0 });

      for (const s of statements('0022_fill_send_numbers.sql')) await old.exec(s);

      expect(await cards()).toEqual({
        Vendas: { sent: 3, failures: 1, replies: 2 },
        Suporte: { sent: 2, failures: 0, replies: 0 },
        'API oficial': { sent: 0, failures: 0, replies: 1 },
      });
      const numbers = (await cards()) as Record<string, { sent: number }>;
      expect(Object.values(numbers).reduce((sum, c) => sum + c.sent, 0)).toBe(header);
      const lines = (
        await old.query<{ recipient: string; connection_id: string | null }>(
          `select recipient, connection_id from campaign_recipients order by recipient`,
        )
      ).rows;
      expect(lines).toEqual([
        { recipient: '5511900000001', connection_id: sales },
        { recipient: '5511900000002', connection_id: sales },
        { recipient: '5511900000003', connection_id: sales },
        { recipient: '5511900000004', connection_id: sales },
        // Waiting for a lane to claim it, or never sent: no number.
        { recipient: '5511900000005', connection_id: null },
        { recipient: '5511900000006', connection_id: null },
        { recipient: '5511900000007', connection_id: support },
        { recipient: '5511900000008', connection_id: support },
        // Another account's row goes to that account's number.
        { recipient: '5511900000009', connection_id: otherDefault },
      ]);
      const inbound = (
        await old.query<{ provider_message_id: string; connection_id: string }>(
          `select provider_message_id, connection_id from whatsapp_inbound_messages order by 1`,
        )
      ).rows;
      expect(inbound).toEqual([
        { provider_message_id: 'in-1', connection_id: sales },
        { provider_message_id: 'in-2', connection_id: sales },
        { provider_message_id: 'in-3', connection_id: api },
        // An account without a Cloud number: its default.
        { provider_message_id: 'in-4', connection_id: otherDefault },
      ]);
      // Run again: nothing changes.
      for (const s of statements('0022_fill_send_numbers.sql')) await old.exec(s);
      expect(await cards()).toEqual(numbers);
    } finally {
      await ctx.close();
    }
  });
});
