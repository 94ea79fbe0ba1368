import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  BACKUP_MAX_FILE_MB,
  type BackupFileInput,
  backupFile,
  backupMsg,
  type RestoreResult,
} from '../../../contract/backup';
import { botMsg } from '../../../contract/bot';
import { contactsMsg } from '../../../contract/contacts';
import { UPLOAD_MAX_BYTES, uploadsMsg } from '../../../contract/uploads';
import { rowsOf } from '../../db/rows';
import type { UserRow } from '../../db/schema';
import { campaigns, mediaUploads, sessions, whatsappAuthKeys, whatsappBusinessAccounts } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { insertConnection } from '../../testing/connections';
import { apiCall, createTestApp, newCustomer } from '../../testing/test-app';
import { seedDemoWorkspace } from '../auth';
import { restoreBackup } from './backup.service';

const ctx = appPerFile(() => createTestApp({}, undefined, { dispatcher: { autoStart: false } }));

type Json = Record<string, unknown>;
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(80, 9)]);

/** Uploads an image as the dialogs do; answers its id. */
async function upload(cookie: string, name: string, data: Buffer): Promise<string> {
  const res = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name, data } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

/** An upload as its URL serves it to `cookie`'s account: status, type and bytes. */
async function served(cookie: string, ref: string | null | undefined) {
  const id = String(ref).replace(/^upload:/, '');
  const res = await apiCall(ctx, 'GET', `/api/uploads/${id}`, { cookie });
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    bytes: res.rawPayload,
    disposition: res.headers['content-disposition'],
  };
}

const uploadCount = async (userId: string) =>
  rowsOf<{ n: number }>(
    await ctx.database.db.execute(sql`select count(*)::int as n from media_uploads where user_id = ${userId}`),
  )[0].n;

async function download(cookie: string) {
  const res = await apiCall(ctx, 'GET', '/api/backup', { cookie });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return { res, backup: JSON.parse(res.body) as Json & Required<Pick<BackupFileInput, 'contacts'>> };
}

const restore = (cookie: string, file: Buffer | string, filename = 'backup.json') =>
  apiCall(ctx, 'POST', '/api/backup/restore', { cookie, file: { name: filename, data: file } });

async function restoreOk(cookie: string, file: Buffer | string): Promise<RestoreResult> {
  const res = await restore(cookie, file);
  expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
  return res.json() as RestoreResult;
}

const get = async (cookie: string, url: string) => {
  const res = await apiCall(ctx, 'GET', url, { cookie });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
  return res.json();
};

const send = async (cookie: string, method: 'POST' | 'PUT', url: string, payload: unknown) => {
  const res = await apiCall(ctx, method, url, { cookie, payload });
  expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.json();
};

/** Everything an account's screens show, without ids (which a restore does not carry). */
async function figures(cookie: string) {
  const metrics = await get(cookie, '/api/metrics');
  const byKey = <T>(list: T[], key: (x: T) => string) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
  const contacts = (await get(cookie, '/api/contacts')) as Json[];
  const groups = (await get(cookie, '/api/groups')) as Json[];
  const messages = (await get(cookie, '/api/messages')) as Json[];
  const campaigns = (await get(cookie, '/api/campaigns')) as Json[];
  const bot = await get(cookie, '/api/bot-config');
  return {
    metrics: {
      messagesSent: metrics.messagesSent,
      activeContacts: metrics.activeContacts,
      activeGroups: metrics.activeGroups,
      openRate: metrics.openRate,
    },
    contacts: byKey(
      contacts.map(({ id: _id, ...c }) => c),
      (c) => String(c.phone),
    ),
    groups: byKey(
      groups.map(({ id: _id, ...g }) => g),
      (g) => String(g.name),
    ),
    messages: byKey(
      messages.map(({ id: _id, uploadId: _u, uploadUrl: _url, ...m }) => m),
      (m) => String(m.title),
    ),
    campaigns: byKey(
      campaigns.map(({ id: _id, imageUrl: _img, expectedFinishAt: _e, ...c }) => c),
      (c) => `${c.name}${c.createdAt}`,
    ),
    bot: { ...bot, autoReplies: bot.autoReplies.map(({ id: _id, ...r }: Json) => r) },
    whatsapp: await get(cookie, '/api/settings/whatsapp'),
    notifications: await get(cookie, '/api/settings/notifications'),
  };
}

const SECRETS = {
  accessToken: 'EAAG-segredo-do-token-123',
  appSecret: 'app-secret-nao-pode-sair',
  verifyToken: 'verify-token-secreto-456',
  webhookKey: 'webhook-key-secreta-789',
  baileys: 'BAILEYS-CREDS-SEGREDO',
};

/** The seeded account's sending rules, none of them the default. */
const SEEDED_SENDING = {
  autoReconnect: false,
  messageDelay: 7,
  dailyLimit: 321,
  respectBusinessHours: true,
  businessStart: '08:30',
  businessEnd: '17:45',
};

/** An account with a bit of everything, seeded as the app's screens (and the demo seed) write it. */
async function seededAccount(): Promise<{ user: UserRow; cookie: string }> {
  const { user, cookie } = await newCustomer(ctx, { planType: 'enterprise' });
  // A finished campaign with its report lines (read, delivered, failed), contacts, groups, rules.
  await seedDemoWorkspace(ctx.database.db, user.id);
  await send(cookie, 'PUT', '/api/settings/whatsapp', SEEDED_SENDING);
  await send(cookie, 'PUT', '/api/settings/notifications', {
    emailNotifications: false,
    pushNotifications: true,
    campaignUpdates: false,
    systemAlerts: true,
    marketingEmails: false,
  });
  await send(cookie, 'POST', '/api/bot-config', {
    welcomeMessage: 'Bem-vindo à Loja Backup!',
    outOfHoursMessage: 'Estamos fechados agora.',
    handoffMinutes: 45,
    businessHours: { start: '08:30', end: '17:45', days: ['monday', 'wednesday', 'saturday'] },
    autoReplies: [
      { trigger: 'preço', response: 'Planos a partir de R$ 25,00.' },
      {
        trigger: 'Horário',
        response: 'Abrimos às 9h.',
        type: 'interactive',
        isActive: false,
        buttons: [{ text: 'Nosso site', type: 'url', value: 'https://exemplo.com.br' }],
      },
    ],
  });
  await send(cookie, 'POST', '/api/contacts', {
    name: 'Zélia Backup',
    phone: '(21) 99876-5432',
    email: 'zelia@example.com',
    tags: 'vip, cliente',
  });
  await send(cookie, 'POST', '/api/contacts', { name: 'Yuri Saiu', phone: '11 91234-5678', optedOut: true });
  await send(cookie, 'POST', '/api/contacts', { name: 'Xavier Inativo', phone: '31 98888-7777', isActive: false });
  await send(cookie, 'POST', '/api/groups', { name: 'Sem link', membersCount: 3 });
  const uploadId = await upload(cookie, 'foto.png', PNG);
  await send(cookie, 'POST', '/api/messages', {
    title: 'Promoção em HTML',
    content: '<b>Oferta</b> só hoje<br>Aproveite!',
    contentType: 'html',
  });
  await send(cookie, 'POST', '/api/messages', {
    title: 'Com imagem enviada',
    content: 'Veja a foto',
    hasImage: true,
    uploadId,
  });
  await send(cookie, 'POST', '/api/campaigns', {
    name: 'Rascunho de dezembro',
    message: 'Olá {{primeiro_nome}}, novidades!',
    targetType: 'groups',
    // A campaign may only aim at groups linked to WhatsApp ('Sem link' is kept as a group of its own).
    targetGroups: ['Exemplo - Clientes VIP'],
    imageUrl: `upload:${uploadId}`,
  });
  // Secrets this account holds: none may leave in a backup.
  const cloud = await insertConnection(ctx.database.db, user.id, 'cloud');
  const personal = await insertConnection(ctx.database.db, user.id, 'personal', { isDefault: false });
  await ctx.database.db.insert(whatsappBusinessAccounts).values({
    connectionId: cloud.id,
    userId: user.id,
    // One phone number id per account (one lane per id).
    phoneNumberId: `1090${user.id.replaceAll('-', '').slice(0, 11)}`,
    accessToken: SECRETS.accessToken,
    appSecret: SECRETS.appSecret,
    webhookKey: `${SECRETS.webhookKey}-${user.id}`,
    verifyToken: SECRETS.verifyToken,
  });
  await ctx.database.db
    .insert(whatsappAuthKeys)
    .values({ userId: user.id, connectionId: personal.id, key: 'creds', value: SECRETS.baileys });
  return { user, cookie };
}

const counts = (added: number, updated = 0, unchanged = 0, skipped = 0) => ({ added, updated, unchanged, skipped });

describe('GET /api/backup', () => {
  it('downloads the whole account as one JSON file with its format and version, and never a secret', async () => {
    const { user, cookie } = await seededAccount();
    const { res, backup } = await download(cookie);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="disparo-backup-\d{4}-\d{2}-\d{2}\.json"/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(backup.format).toBe('disparo-backup');
    expect(backup.version).toBe(1);
    expect(Math.abs(Date.parse(String(backup.exportedAt)) - Date.now())).toBeLessThan(60_000);
    // The file is what a restore accepts.
    expect(backupFile.safeParse(backup).success).toBe(true);

    const b = backupFile.parse(backup);
    expect(b.contacts).toHaveLength(9);
    expect(b.contacts.find((c) => c.phone === '+5521998765432')).toMatchObject({
      name: 'Zélia Backup',
      email: 'zelia@example.com',
      tags: ['vip', 'cliente'],
      isActive: true,
      optedOut: false,
    });
    expect(b.contacts.find((c) => c.phone === '+5511912345678')?.optedOut).toBe(true);
    expect(b.groups.map((g) => g.name).sort()).toEqual(['Exemplo - Clientes VIP', 'Exemplo - Promoções', 'Sem link']);
    expect(b.savedMessages.map((m) => m.title).sort()).toEqual(['Com imagem enviada', 'Promoção em HTML']);
    expect(b.campaigns.map((c) => [c.name, c.status])).toEqual(
      expect.arrayContaining([
        ['Exemplo - Boas-vindas de novembro', 'completed'],
        ['Rascunho de dezembro', 'draft'],
      ]),
    );
    const finished = b.campaigns.find((c) => c.status === 'completed');
    expect(finished?.recipients.map((r) => r.status).sort()).toEqual(
      ['delivered', 'delivered', 'failed', 'read', 'read', 'read'].sort(),
    );
    // The uploaded image that the draft and a saved message use travels once, by its bytes.
    const draft = b.campaigns.find((c) => c.name === 'Rascunho de dezembro');
    const withImage = b.savedMessages.find((m) => m.title === 'Com imagem enviada');
    expect(draft?.imageUrl).toBe(`upload:${withImage?.uploadId}`);
    // Kept in the media store as every file, it carries its size and SHA-256 as the others do.
    expect(b.media).toEqual([
      {
        url: draft?.imageUrl,
        fileName: 'foto.png',
        contentType: 'image/png',
        kind: 'image',
        size: PNG.length,
        sha256: createHash('sha256').update(PNG).digest('hex'),
        data: PNG.toString('base64'),
      },
    ]);
    expect(b.mediaLeftOut).toBeUndefined();
    expect(b.bot?.welcomeMessage).toBe('Bem-vindo à Loja Backup!');
    expect(b.bot?.autoReplies.map((r) => r.trigger)).toEqual(['preço', 'Horário']);
    expect(b.settings).toEqual({
      whatsapp: SEEDED_SENDING,
      businessDays: ['monday', 'wednesday', 'saturday'],
      notifications: {
        emailNotifications: false,
        pushNotifications: true,
        campaignUpdates: false,
        systemAlerts: true,
        marketingEmails: false,
      },
    });

    const [session] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    const forbidden = [
      ...Object.values(SECRETS),
      user.passwordHash,
      session.tokenHash,
      cookie.split('=')[1],
      'demo-0', // provider message ids of the report lines
    ];
    for (const secret of forbidden) expect(res.body, 'a secret in the backup').not.toContain(secret);
    for (const key of [
      'password',
      'passwordHash',
      'tokenHash',
      'accessToken',
      'appSecret',
      'verifyToken',
      'webhookKey',
      'providerMessageId',
      'channel',
      'userId',
    ]) {
      expect(res.body, `key ${key}`).not.toContain(`"${key}"`);
    }
  });

  it('an account without anything downloads a valid, empty backup', async () => {
    const { cookie } = await newCustomer(ctx);
    const { backup } = await download(cookie);
    const b = backupFile.parse(backup);
    expect([b.contacts, b.groups, b.savedMessages, b.campaigns, b.bot?.autoReplies]).toEqual([[], [], [], [], []]);
    expect(b.bot?.isEnabled).toBe(true);
  });
});

describe('POST /api/backup/restore', () => {
  it('restores into a fresh account with the same figures and lists; a second restore changes nothing', async () => {
    const source = await seededAccount();
    const { res } = await download(source.cookie);
    const target = await newCustomer(ctx, { planType: 'enterprise' });

    const first = await restoreOk(target.cookie, res.body);
    expect(first.contacts).toEqual(counts(9));
    expect(first.groups).toEqual(counts(3));
    expect(first.savedMessages).toEqual(counts(2));
    expect(first.campaigns).toEqual(counts(2));
    expect(first.autoReplies).toEqual(counts(2));
    expect(first.botConfig).toEqual(counts(1));
    expect(first.settings).toEqual(counts(1));
    expect(first.message).toContain('Backup restaurado: 9 contatos adicionados; 3 grupos adicionados;');

    const expected = await figures(source.cookie);
    const got = await figures(target.cookie);
    expect(got.metrics.messagesSent).toBe(5);
    expect(got.metrics.activeContacts).toBe(7);
    // The uploaded image came along, as the restoring account's own upload (ids aside, all the same).
    expect(got).toEqual(expected);
    expect(first.warnings).toEqual([]);

    // The restored account's own backup is the same file (but for its date and the images' ids).
    const again = backupFile.parse((await download(target.cookie)).backup);
    const original = backupFile.parse(JSON.parse(res.body));
    const sorted = <T>(list: T[]) => [...list].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    const withoutIds = (b: typeof original) => ({
      ...b,
      exportedAt: '',
      groups: sorted(b.groups),
      savedMessages: sorted(b.savedMessages.map((m) => ({ ...m, uploadId: m.uploadId ? 'id' : m.uploadId }))),
      campaigns: sorted(b.campaigns.map((c) => ({ ...c, imageUrl: c.imageUrl?.replace(/^upload:.*/, 'upload:id') }))),
      media: b.media?.map((m) => ({ ...m, url: 'upload:id' })),
    });
    expect(original.media).toHaveLength(1);
    expect(withoutIds(again)).toEqual(withoutIds(original));

    const rowsBefore = await tableCounts(target.user.id);
    const second = await restoreOk(target.cookie, res.body);
    expect(second.contacts).toEqual(counts(0, 0, 9));
    expect(second.groups).toEqual(counts(0, 0, 3));
    expect(second.savedMessages).toEqual(counts(0, 0, 2));
    expect(second.campaigns).toEqual(counts(0, 0, 2));
    expect(second.autoReplies).toEqual(counts(0, 0, 2));
    expect(second.botConfig).toEqual(counts(0, 0, 1));
    expect(second.settings).toEqual(counts(0, 0, 1));
    expect(second.message).toBe(backupMsg.nothingNew);
    expect(await tableCounts(target.user.id)).toEqual(rowsBefore);
    expect(await figures(target.cookie)).toEqual(got);

    // And into the account it came from: nothing new either (its own image is kept).
    const intoSource = await restoreOk(source.cookie, res.body);
    expect(intoSource.contacts).toEqual(counts(0, 0, 9));
    expect(intoSource.campaigns).toEqual(counts(0, 0, 2));
    expect(intoSource.savedMessages).toEqual(counts(0, 0, 2));
    expect(await figures(source.cookie)).toEqual(expected);
  });

  it('merges into an account with data: keeps what it has, fills what it lacks, adds the rest', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await send(cookie, 'POST', '/api/contacts', { name: 'Nome da conta', phone: '21998765432', tags: 'antiga' });
    await send(cookie, 'POST', '/api/groups', { name: 'clientes vip', membersCount: 1 });
    await send(cookie, 'POST', '/api/bot-config', {
      welcomeMessage: '',
      autoReplies: [{ trigger: 'PRECO', response: 'Resposta da conta' }],
    });
    await send(cookie, 'PUT', '/api/settings/whatsapp', {
      autoReconnect: true,
      messageDelay: 3,
      dailyLimit: 50,
      respectBusinessHours: false,
      businessStart: '10:00',
      businessEnd: '16:00',
    });
    const file: BackupFileInput = {
      format: 'disparo-backup',
      version: 1,
      exportedAt: '2026-11-22T14:05:00.000Z',
      contacts: [
        {
          name: 'Nome do backup',
          phone: '+55 (21) 99876-5432',
          email: 'do-backup@example.com',
          tags: ['vip', 'antiga'],
          isWhatsAppActive: true,
          whatsappCheckedAt: '2026-11-20T10:00:00.000Z',
        },
        { name: 'Nova', phone: '11912345678', createdAt: '2026-01-02T03:04:05.678Z' },
      ],
      groups: [
        { name: 'Clientes VIP', whatsappGroupId: '120363000000000001@g.us' },
        { name: 'Novo grupo', membersCount: 4 },
      ],
      bot: {
        welcomeMessage: 'Olá do backup',
        aiEnabled: true,
        autoReplies: [
          { trigger: 'preço', response: 'Resposta do backup' },
          { trigger: 'entrega', response: 'Entregamos em 2 dias.' },
        ],
      },
      settings: {
        whatsapp: {
          autoReconnect: false,
          messageDelay: 9,
          dailyLimit: 999,
          respectBusinessHours: true,
          businessStart: '07:00',
          businessEnd: '19:00',
        },
        businessDays: ['sunday'],
        notifications: {
          emailNotifications: false,
          pushNotifications: false,
          campaignUpdates: false,
          systemAlerts: false,
          marketingEmails: false,
        },
      },
    };
    const result = await restoreOk(cookie, JSON.stringify(file));
    expect(result.contacts).toEqual(counts(1, 1));
    expect(result.groups).toEqual(counts(1, 1));
    expect(result.autoReplies).toEqual(counts(1, 0, 1));
    expect(result.botConfig).toEqual(counts(0, 1));
    expect(result.settings).toEqual(counts(0, 0, 1));
    expect(result.message).toBe(
      'Backup restaurado: 1 contato adicionado e 1 atualizado; 1 grupo adicionado e 1 atualizado; 1 resposta automática adicionada; 1 configuração do chatbot atualizada.',
    );

    const contacts = (await get(cookie, '/api/contacts')) as Json[];
    expect(contacts.map((c) => [c.name, c.phone, c.email, c.tags, c.isWhatsAppActive])).toEqual([
      ['Nome da conta', '+5521998765432', 'do-backup@example.com', ['antiga', 'vip'], true],
      ['Nova', '+5511912345678', null, [], null],
    ]);
    expect(contacts[1].createdAt).toBe('2026-01-02T03:04:05.678Z');
    const groups = (await get(cookie, '/api/groups')) as Json[];
    expect(groups.map((g) => [g.name, g.whatsappGroupId, g.membersCount])).toEqual([
      ['clientes vip', '120363000000000001@g.us', 1],
      ['Novo grupo', '', 4],
    ]);
    const bot = await get(cookie, '/api/bot-config');
    expect(bot.welcomeMessage).toBe('Olá do backup');
    // This server has no AI key: the bot settings could not turn it on either.
    expect(bot.aiEnabled).toBe(false);
    expect(bot.autoReplies.map((r: Json) => [r.trigger, r.response])).toEqual([
      ['PRECO', 'Resposta da conta'],
      ['entrega', 'Entregamos em 2 dias.'],
    ]);
    expect((await get(cookie, '/api/settings/whatsapp')).dailyLimit).toBe(50);

    const again = await restoreOk(cookie, JSON.stringify(file));
    expect(again.message).toBe(backupMsg.nothingNew);
    expect(again.contacts).toEqual(counts(0, 0, 2));
    const [{ n }] = rowsOf<{ n: number }>(
      await ctx.database.db.execute(sql`select count(*)::int as n from contacts where user_id = ${user.id}`),
    );
    expect(n).toBe(2);
  });

  it('never sends a restored campaign again: running ones come back cancelled, scheduled ones as drafts', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const file: BackupFileInput = {
      format: 'disparo-backup',
      version: 1,
      exportedAt: '2026-11-22T14:05:00.000Z',
      contacts: [{ name: 'Ana', phone: '+5521998765432' }],
      campaigns: [
        {
          name: 'Em andamento',
          message: 'Oi {{nome}}',
          status: 'in_progress',
          createdAt: '2026-11-22T10:00:00.000Z',
          startedAt: '2026-11-22T10:01:00.000Z',
          recipients: [
            { recipient: '5521998765432', status: 'read', sentAt: '2026-11-22T10:02:00.000Z' },
            { recipient: '5521911112222', status: 'queued' },
            { recipient: '5521933334444', status: 'sending', attempts: 1 },
          ],
        },
        {
          name: 'Agendada',
          message: 'Amanhã!',
          status: 'scheduled',
          scheduledAt: '2099-01-01T12:00:00.000Z',
          createdAt: '2026-11-22T11:00:00.000Z',
        },
      ],
    };
    const result = await restoreOk(cookie, JSON.stringify(file));
    expect(result.campaigns).toEqual(counts(2));
    const list = (await get(cookie, '/api/campaigns')) as Json[];
    const running = list.find((c) => c.name === 'Em andamento');
    expect(running).toMatchObject({ status: 'cancelled', messagesSent: 1 });
    expect(running?.finishedAt).toBeTruthy();
    expect(list.find((c) => c.name === 'Agendada')).toMatchObject({ status: 'draft', scheduledAt: null });
    const lines = rowsOf<{ recipient: string; status: string; error: string | null; contact_id: string | null }>(
      await ctx.database.db.execute(
        sql`select recipient, status, error, contact_id from campaign_recipients where user_id = ${user.id} order by recipient`,
      ),
    );
    expect(lines.map((l) => [l.recipient, l.status, l.error])).toEqual([
      ['5521911112222', 'skipped', backupMsg.recipientNotSent],
      ['5521933334444', 'skipped', backupMsg.recipientNotSent],
      ['5521998765432', 'read', null],
    ]);
    // The report line points at the account's own contact with that number.
    const [ana] = (await get(cookie, '/api/contacts')) as Json[];
    expect(lines[2].contact_id).toBe(ana.id);
  });

  it('brings back contacts as the account stored them, control characters from a spreadsheet included', async () => {
    const source = await newCustomer(ctx);
    // An import keeps such characters (a form would refuse them); the backup must not lose the contact.
    await ctx.database.db.execute(sql`insert into contacts (user_id, name, phone, tags) values
      (${source.user.id}, ${'Con\u0001trole'}, '+5521900000001', ${sql.param(['a\u0002b'])}::text[])`);
    const { res } = await download(source.cookie);
    const target = await newCustomer(ctx);
    expect((await restoreOk(target.cookie, res.body)).contacts).toEqual(counts(1));
    const [contact] = (await get(target.cookie, '/api/contacts')) as Json[];
    expect([contact.name, contact.phone, contact.tags]).toEqual(['Con\u0001trole', '+5521900000001', ['a\u0002b']]);
    // NUL cannot be stored at all: a file holding one is refused, not truncated.
    const withNul = res.body.replace('Con\\u0001trole', 'Con\\u0000trole');
    expect(withNul).not.toBe(res.body);
    const refused = await restore(target.cookie, withNul);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(
      /^Backup inválido \(contato nº 1, campo "nome"\): O texto contém caracteres inválidos/,
    );
  });

  it('applies the plan limit to contacts, in batches, and says what was left out', async () => {
    const { user, cookie } = await newCustomer(ctx, { planType: 'basic' });
    await send(cookie, 'POST', '/api/contacts', { name: 'Já existe', phone: '21990000000' });
    const many = Array.from({ length: 5_003 }, (_, i) => ({
      name: `Contato ${i}`,
      phone: `+55219${String(10_000_000 + i)}`,
    }));
    const result = await restoreOk(
      cookie,
      JSON.stringify({ format: 'disparo-backup', version: 1, exportedAt: new Date().toISOString(), contacts: many }),
    );
    expect(result.contacts).toEqual(counts(4_999, 0, 0, 4));
    expect(result.message).toContain(
      '4 contatos não foram restaurados porque o Plano Básico permite até 5.000 contatos.',
    );
    const [{ n }] = rowsOf<{ n: number }>(
      await ctx.database.db.execute(sql`select count(*)::int as n from contacts where user_id = ${user.id}`),
    );
    expect(n).toBe(5_000);
  });

  it('refuses an invalid file with a pt-BR message saying what is wrong, and changes nothing', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const valid = {
      format: 'disparo-backup',
      version: 1,
      exportedAt: '2026-11-22T14:05:00.000Z',
      groups: [{ name: 'Grupo bom' }],
      contacts: [
        { name: 'Ana', phone: '+5521998765432' },
        { name: 'Bia', phone: '+5511912345678' },
        { name: 'Caio', phone: '+5531988887777' },
      ],
    };
    const cases: Array<[string, Buffer | string, RegExp | string]> = [
      ['empty', '', backupMsg.emptyFile],
      ['not JSON', 'Nome;Telefone\nAna;21998765432', backupMsg.notJson],
      ['not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), backupMsg.notJson],
      ['another JSON', JSON.stringify([{ name: 'Ana' }]), backupMsg.notBackup],
      ['another format', JSON.stringify({ ...valid, format: 'outro' }), backupMsg.notBackup],
      ['a newer version', JSON.stringify({ ...valid, version: 2 }), backupMsg.unsupportedVersion(2)],
      [
        'a bad phone',
        JSON.stringify({ ...valid, contacts: [...valid.contacts.slice(0, 2), { name: 'X', phone: '123' }] }),
        `Backup inválido (contato nº 3, campo "telefone"): ${contactsMsg.invalidPhone} Nenhum dado foi alterado.`,
      ],
      [
        'a number twice',
        JSON.stringify({ ...valid, contacts: [...valid.contacts, { name: 'Ana 2', phone: '21 99876-5432' }] }),
        `Backup inválido (contato nº 4, campo "telefone"): ${backupMsg.duplicatePhone} Nenhum dado foi alterado.`,
      ],
      [
        'a missing field',
        JSON.stringify({ ...valid, campaigns: [{ name: 'Sem data', message: 'Oi', status: 'draft' }] }),
        /^Backup inválido \(campanha nº 1, campo "criado em"\): .+ Nenhum dado foi alterado\.$/,
      ],
      [
        'a bad status deep inside',
        JSON.stringify({
          ...valid,
          campaigns: [
            {
              name: 'C',
              message: 'Oi',
              status: 'completed',
              createdAt: '2026-11-22T14:05:00.000Z',
              recipients: [{ recipient: '5521998765432', status: 'entregue' }],
            },
          ],
        }),
        /^Backup inválido \(campanha nº 1, destinatário nº 1, campo "status"\): /,
      ],
      [
        'a control character',
        JSON.stringify({ ...valid, groups: [{ name: 'Grupo\u0007' }] }),
        /^Backup inválido \(grupo nº 1, campo "nome"\): O texto contém caracteres inválidos/,
      ],
      [
        'a keyword twice',
        JSON.stringify({
          ...valid,
          bot: {
            autoReplies: [
              { trigger: 'Preço', response: 'A' },
              { trigger: 'preco', response: 'B' },
            ],
          },
        }),
        `Backup inválido (chatbot, resposta automática nº 2, campo "palavra-chave"): ${botMsg.keywordDuplicate('preco')} Nenhum dado foi alterado.`,
      ],
      [
        'an unknown variable',
        JSON.stringify({
          ...valid,
          campaigns: [{ name: 'C', message: 'Oi {{apelido}}', status: 'draft', createdAt: '2026-11-22T14:05:00.000Z' }],
        }),
        /campanha nº 1, campo "mensagem"\): Variável desconhecida na mensagem: \{\{apelido\}\}\. Use /,
      ],
      [
        'HTML that is nothing once sanitised',
        JSON.stringify({
          ...valid,
          savedMessages: [{ title: 'T', content: '<script>alert(1)</script>', contentType: 'html' }],
        }),
        /mensagem salva nº 1, campo "conteúdo"\)/,
      ],
    ];
    for (const [label, file, expected] of cases) {
      const res = await restore(cookie, file);
      expect(res.statusCode, label).toBe(400);
      const body = res.json();
      expect(body.code, label).toBe('VALIDATION');
      if (typeof expected === 'string') expect(body.message, label).toBe(expected);
      else expect(body.message, label).toMatch(expected);
    }
    expect(await tableCounts(user.id)).toEqual({
      contacts: 0,
      groups: 0,
      campaigns: 0,
      recipients: 0,
      saved_messages: 0,
      auto_replies: 0,
      bot_configs: 0,
      account_settings: 0,
    });
    // The same file without the problem goes in whole.
    expect((await restoreOk(cookie, JSON.stringify(valid))).contacts).toEqual(counts(3));
  });

  it('asks for the file in the "file" field and refuses one over the size limit with a pt-BR 413', async () => {
    const { cookie } = await newCustomer(ctx);
    const json = await apiCall(ctx, 'POST', '/api/backup/restore', { cookie, payload: { format: 'disparo-backup' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(backupMsg.noFile);
    const wrongField = { name: 'backup.json', data: '{}', field: 'arquivo' };
    const other = await apiCall(ctx, 'POST', '/api/backup/restore', { cookie, file: wrongField });
    expect(other.json().message).toBe(backupMsg.noFile);
    const huge = await restore(cookie, Buffer.alloc(BACKUP_MAX_FILE_MB * 1024 * 1024 + 1, 0x20));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: backupMsg.fileTooLarge(50) });
  });

  it('keeps a demo account read-only and another account out', async () => {
    const demo = await newCustomer(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const res = await restore(demo.cookie, JSON.stringify({ format: 'disparo-backup', version: 1 }));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('DEMO_READ_ONLY');
    // A demo may read: its backup holds its own sample data only.
    await seedDemoWorkspace(ctx.database.db, demo.user.id);
    const other = await newCustomer(ctx);
    await send(other.cookie, 'POST', '/api/contacts', { name: 'Só da outra conta', phone: '21977776666' });
    const { res: mine } = await download(demo.cookie);
    expect(mine.body).toContain('Exemplo - Ana Souza');
    expect(mine.body).not.toContain('Só da outra conta');
  });
});

describe('uploaded images', () => {
  const base = { format: 'disparo-backup', version: 1, exportedAt: '2026-11-22T14:05:00.000Z' } as const;
  const draft = (name: string, imageUrl: string) => ({
    name,
    message: 'Oferta!',
    status: 'draft',
    imageUrl,
    createdAt: '2026-11-20T10:00:00.000Z',
  });
  const image = (id: string, data: Buffer | string, fileName = 'foto.png') => ({
    url: `upload:${id}`,
    fileName,
    contentType: 'image/png',
    data: typeof data === 'string' ? data : data.toString('base64'),
  });

  it("carries the account's own images, and another account gets them back as its own uploads", async () => {
    const source = await newCustomer(ctx, { planType: 'enterprise' });
    const campaignImage = await upload(source.cookie, 'black-friday.png', PNG);
    const messageImage = await upload(source.cookie, 'vitrine.jpg', JPEG);
    await send(source.cookie, 'POST', '/api/campaigns', {
      name: 'Black Friday',
      message: 'Descontos de até 50%!',
      imageUrl: `upload:${campaignImage}`,
    });
    await send(source.cookie, 'POST', '/api/campaigns', {
      name: 'Link externo',
      message: 'Veja a vitrine',
      imageUrl: 'https://exemplo.com.br/vitrine.png',
    });
    await send(source.cookie, 'POST', '/api/messages', {
      title: 'Promoção com foto',
      content: 'Chegou a coleção nova',
      hasImage: true,
      uploadId: messageImage,
    });
    // A row pointing at another account's upload (no screen writes one): its bytes never travel.
    const stranger = await newCustomer(ctx);
    const strangers = Buffer.concat([PNG, Buffer.from('imagem de outra conta')]);
    const strangerImage = await upload(stranger.cookie, 'alheia.png', strangers);
    await ctx.database.db.insert(campaigns).values({
      userId: source.user.id,
      name: 'Imagem alheia',
      message: 'Oi',
      imageUrl: `upload:${strangerImage}`,
    });

    const { res, backup } = await download(source.cookie);
    const b = backupFile.parse(backup);
    expect(b.media?.map((m) => [m.url, m.fileName, m.contentType, m.data]).sort()).toEqual(
      [
        [`upload:${campaignImage}`, 'black-friday.png', 'image/png', PNG.toString('base64')],
        [`upload:${messageImage}`, 'vitrine.jpg', 'image/jpeg', JPEG.toString('base64')],
      ].sort(),
    );
    expect(res.body).not.toContain(strangers.toString('base64'));
    // The file says it carries every file its rows use (another account's is none of them).
    expect(backup.files).toEqual({ included: true, count: 2, bytes: PNG.length + JPEG.length, notIncluded: 0 });

    const target = await newCustomer(ctx, { planType: 'enterprise' });
    const result = await restoreOk(target.cookie, res.body);
    expect(result.files).toEqual({ restored: 2, notRestored: 1 });
    expect(result.campaigns).toEqual(counts(3));
    expect(result.savedMessages).toEqual(counts(1));
    expect(result.warnings).toEqual([backupMsg.campaignImageNotRestored('Imagem alheia', backupMsg.mediaMissing)]);
    expect(result.message).toContain('1 imagem não pôde ser restaurada.');

    const list = (await get(target.cookie, '/api/campaigns')) as Json[];
    const byName = (name: string) => list.find((c) => c.name === name);
    // 'Com imagem': a new upload of this account, serving the same bytes, to it only.
    const restored = byName('Black Friday')?.imageUrl as string;
    expect(restored).toMatch(/^upload:[0-9a-f-]{36}$/);
    expect(restored).not.toBe(`upload:${campaignImage}`);
    expect(await served(target.cookie, restored)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    expect((await served(source.cookie, restored)).status).toBe(404);
    expect(byName('Link externo')?.imageUrl).toBe('https://exemplo.com.br/vitrine.png');
    expect(byName('Imagem alheia')?.imageUrl).toBeNull();

    const [message] = (await get(target.cookie, '/api/messages')) as Json[];
    expect(message).toMatchObject({ title: 'Promoção com foto', hasImage: true, imageFile: 'vitrine.jpg' });
    expect(message.uploadId).not.toBe(messageImage);
    expect(message.uploadUrl).toBe(`/api/uploads/${message.uploadId}`);
    expect(await served(target.cookie, String(message.uploadId))).toMatchObject({
      status: 200,
      type: 'image/jpeg',
      bytes: JPEG,
    });
    expect(await uploadCount(target.user.id)).toBe(2);

    // Again: nothing is added, no image stored twice, nothing to warn about.
    const again = await restoreOk(target.cookie, res.body);
    expect(again.message).toBe(backupMsg.nothingNew);
    expect(again.warnings).toEqual([]);
    expect(await uploadCount(target.user.id)).toBe(2);
  });

  it('carries a campaign’s PDF of the media store and says so', async () => {
    const source = await newCustomer(ctx);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3000, 7), Buffer.from('\n%%EOF\n')]);
    const pdfId = await upload(source.cookie, 'tabela.pdf', pdf);
    await ctx.database.db
      .insert(campaigns)
      .values({ userId: source.user.id, name: 'Tabela', message: 'Segue', mediaUrl: `upload:${pdfId}` });
    const { res, backup } = await download(source.cookie);
    expect(backup.files).toEqual({ included: true, count: 1, bytes: pdf.length, notIncluded: 0 });
    const target = await newCustomer(ctx);
    const result = await restoreOk(target.cookie, res.body);
    expect(result.campaigns).toEqual(counts(1));
    expect(result.files).toEqual({ restored: 1, notRestored: 0 });
    const [campaign] = (await get(target.cookie, '/api/campaigns')) as Json[];
    expect(campaign.mediaUrl).not.toBe(`upload:${pdfId}`);
    expect(await served(target.cookie, campaign.mediaUrl as string)).toMatchObject({ status: 200, bytes: pdf });
  });

  it('reports a tampered image with its pt-BR reason and restores everything else', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const [html, big, broken, good, named] = Array.from({ length: 5 }, () => randomUUID());
    const tooBig = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES + 1 - PNG.length, 1)]);
    const file = {
      ...base,
      campaigns: [
        draft('HTML disfarçado', `upload:${html}`),
        draft('Grande demais', `upload:${big}`),
        draft('Base64 quebrado', `upload:${broken}`),
        draft('Imagem boa', `upload:${good}`),
      ],
      savedMessages: [{ title: 'Nome perigoso', content: 'Oi', hasImage: true, uploadId: named, imageFile: 'x' }],
      media: [
        image(html, Buffer.from('<!doctype html><script>fetch("/api/backup")</script>'), 'pagina.png'),
        image(big, tooBig),
        image(broken, 'não é base64!!'),
        image(good, PNG, '../../../etc/passwd.png'),
        image(named, JPEG, '..\\..\\windows\\foto.jpg'),
      ],
    };
    const result = await restoreOk(cookie, JSON.stringify(file));
    expect(result.campaigns).toEqual(counts(4));
    expect(result.savedMessages).toEqual(counts(1));
    expect(result.warnings).toEqual([
      backupMsg.campaignImageNotRestored('HTML disfarçado', uploadsMsg.invalidType),
      backupMsg.campaignImageNotRestored('Grande demais', uploadsMsg.tooLarge),
      backupMsg.campaignImageNotRestored('Base64 quebrado', backupMsg.mediaCorrupted),
    ]);
    expect(result.warnings?.[0]).toBe(
      'Imagem da campanha “HTML disfarçado” não pôde ser restaurada: formato de imagem não suportado. Envie uma imagem JPEG, PNG ou WebP.',
    );
    expect(result.message).toContain('3 imagens não puderam ser restauradas.');

    const list = (await get(cookie, '/api/campaigns')) as Json[];
    const imageOf = (name: string) => list.find((c) => c.name === name)?.imageUrl;
    for (const name of ['HTML disfarçado', 'Grande demais', 'Base64 quebrado']) expect(imageOf(name), name).toBeNull();
    // A name from the file is a name, never a path.
    const kept = await served(cookie, String(imageOf('Imagem boa')));
    expect(kept).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    expect(kept.disposition).toMatch(/^inline; filename="passwd\.png"/);
    const [message] = (await get(cookie, '/api/messages')) as Json[];
    expect(message).toMatchObject({ hasImage: true, imageFile: 'foto.jpg' });
    expect(await uploadCount(user.id)).toBe(2);
  });

  it('refuses an images section of the wrong shape, changing nothing', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const id = randomUUID();
    const file = (media: string) =>
      `${JSON.stringify({ ...base, campaigns: [draft('C', `upload:${id}`)] }).slice(0, -1)},"media":${media}}`;
    const cases: Array<[string, string, RegExp | string]> = [
      [
        'not a list',
        file('"imagens"'),
        `Backup inválido (campo "imagens"): ${backupMsg.mediaNotList} Nenhum dado foi alterado.`,
      ],
      ['not an object', file('[1]'), /^Backup inválido \(imagem nº 1\): Cada imagem deve ser um objeto/],
      [
        'a path for a reference',
        file(JSON.stringify([{ url: '../../etc/passwd', data: 'AAAA' }])),
        `Backup inválido (imagem nº 1, campo "referência"): ${backupMsg.mediaUrlInvalid} Nenhum dado foi alterado.`,
      ],
      [
        'data that is not text',
        file(JSON.stringify([{ url: `upload:${id}`, data: 5 }])),
        /^Backup inválido \(imagem nº 1, campo "conteúdo"\): O conteúdo da imagem deve ser um texto em base64\./,
      ],
      [
        'too many images',
        file(JSON.stringify(Array.from({ length: 101 }, () => ({ url: `upload:${randomUUID()}`, data: 'AAAA' })))),
        `Backup inválido (campo "imagens"): ${backupMsg.mediaTooMany} Nenhum dado foi alterado.`,
      ],
      ['broken JSON inside it', file(`[{"url" "upload:${id}"}]`), backupMsg.notJson],
    ];
    for (const [label, body, expected] of cases) {
      const res = await restore(cookie, body);
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      if (typeof expected === 'string') expect(res.json().message, label).toBe(expected);
      else expect(res.json().message, label).toMatch(expected);
    }
    expect((await tableCounts(user.id)).campaigns).toBe(0);
    expect(await uploadCount(user.id)).toBe(0);
  });

  it('restores a backup from before images were carried, saying which images did not come back', async () => {
    const source = await seededAccount();
    const { backup } = await download(source.cookie);
    const { media: _media, ...old } = backup;
    const target = await newCustomer(ctx, { planType: 'enterprise' });
    const result = await restoreOk(target.cookie, JSON.stringify(old));
    expect(result.contacts).toEqual(counts(9));
    expect(result.campaigns).toEqual(counts(2));
    expect(result.savedMessages).toEqual(counts(2));
    expect(result.warnings).toEqual([
      backupMsg.messageImageNotRestored('Com imagem enviada', backupMsg.mediaMissing),
      backupMsg.campaignImageNotRestored('Rascunho de dezembro', backupMsg.mediaMissing),
    ]);
    expect(result.message).toMatch(
      /^Backup restaurado: 9 contatos adicionados;.* 2 imagens não puderam ser restauradas\.$/,
    );
    // Never left pointing at the other account's upload, which this one could not read.
    const list = (await get(target.cookie, '/api/campaigns')) as Json[];
    expect(list.find((c) => c.name === 'Rascunho de dezembro')?.imageUrl).toBeNull();
    const messages = (await get(target.cookie, '/api/messages')) as Json[];
    expect(messages.find((m) => m.title === 'Com imagem enviada')).toMatchObject({
      hasImage: false,
      uploadId: null,
      imageFile: '',
    });
    expect(await uploadCount(target.user.id)).toBe(0);

    // Images the export had no room for are named as such; a link beside a lost upload still sends.
    const [a, b] = [randomUUID(), randomUUID()];
    const other = await newCustomer(ctx);
    const leftOut = await restoreOk(
      other.cookie,
      JSON.stringify({
        ...base,
        savedMessages: [
          { title: 'Sem espaço', content: 'Oi', hasImage: true, uploadId: a },
          { title: 'Com link', content: 'Oi', hasImage: true, uploadId: b, imageUrl: 'https://exemplo.com.br/a.png' },
        ],
        mediaLeftOut: [`upload:${a}`],
      }),
    );
    expect(leftOut.warnings).toEqual([
      backupMsg.messageImageNotRestored('Sem espaço', backupMsg.mediaLeftOut),
      backupMsg.messageImageNotRestored('Com link', backupMsg.mediaMissing),
    ]);
    const kept = (await get(other.cookie, '/api/messages')) as Json[];
    expect(kept.find((m) => m.title === 'Com link')).toMatchObject({
      hasImage: true,
      imageUrl: 'https://exemplo.com.br/a.png',
      uploadId: null,
    });
  });

  it("keeps to the account's room for images, pruning unused old uploads first as an upload does", async () => {
    const { user } = await newCustomer(ctx);
    const MB = 1024 * 1024;
    const sized = (mb: number, fill: number) => Buffer.concat([PNG, Buffer.alloc(mb * MB - PNG.length, fill)]);
    // An upload no row uses any more, two days old: the backup made here still carries it.
    const old = sized(1, 1);
    const [stale] = await ctx.database.db
      .insert(mediaUploads)
      .values({
        userId: user.id,
        fileName: 'antiga.png',
        mimeType: 'image/png',
        size: old.length,
        data: old,
        createdAt: new Date(Date.now() - 2 * 86_400_000),
      })
      .returning({ id: mediaUploads.id });
    const [n1, n2, n3] = [randomUUID(), randomUUID(), randomUUID()];
    const restoreWithRoom = (file: unknown) =>
      restoreBackup(ctx.database.db, ctx.app.deps.state, user, Buffer.from(JSON.stringify(file)), {
        aiAvailable: false,
        uploadsQuotaMb: 5,
        store: ctx.app.deps.media.store,
      });
    // 1 + 2 + 2 MB: room only once the stale upload is pruned; it comes back from the file.
    const first = await restoreWithRoom({
      ...base,
      campaigns: [
        draft('Antiga', `upload:${stale.id}`),
        draft('Nova 1', `upload:${n1}`),
        draft('Nova 2', `upload:${n2}`),
      ],
      media: [image(stale.id, old), image(n1, sized(2, 2)), image(n2, sized(2, 3))],
    });
    expect(first.warnings).toEqual([]);
    const rows = await ctx.database.db
      .select({ name: campaigns.name, imageUrl: campaigns.imageUrl })
      .from(campaigns)
      .where(eq(campaigns.userId, user.id));
    const antiga = rows.find((r) => r.name === 'Antiga')?.imageUrl;
    expect(antiga).toMatch(/^upload:/);
    expect(antiga).not.toBe(`upload:${stale.id}`);
    expect(await uploadCount(user.id)).toBe(3);
    // The room is full: the next image is refused as an upload would be, and said so.
    const second = await restoreWithRoom({
      ...base,
      campaigns: [draft('Nova 3', `upload:${n3}`)],
      media: [image(n3, sized(2, 4))],
    });
    const [usedNow] = rowsOf<{ total: string | number }>(
      await ctx.database.db.execute(sql`select sum(size) as total from media_uploads where user_id = ${user.id}`),
    );
    expect(second.warnings).toEqual([
      backupMsg.campaignImageNotRestored('Nova 3', uploadsMsg.quotaExceeded(5 * 1024 * 1024, Number(usedNow.total))),
    ]);
    expect(await uploadCount(user.id)).toBe(3);
  });

  it('takes images beyond the data limit: a file of 50 MB of data plus its images', async () => {
    const { user, cookie } = await newCustomer(ctx);
    // Eight images of the largest size an upload takes: 40 MB, 53 MB of base64.
    const ids = Array.from({ length: 8 }, () => randomUUID());
    const largest = (k: number) => Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES - PNG.length, k)]);
    const file = JSON.stringify({
      ...base,
      campaigns: ids.map((id, k) => draft(`Campanha ${k + 1}`, `upload:${id}`)),
      media: ids.map((id, k) => image(id, largest(k))),
    });
    expect(file.length).toBeGreaterThan(BACKUP_MAX_FILE_MB * 1024 * 1024);
    const result = await restoreOk(cookie, file);
    expect(result.campaigns).toEqual(counts(8));
    expect(result.warnings).toEqual([]);
    expect(await uploadCount(user.id)).toBe(8);
    const list = (await get(cookie, '/api/campaigns')) as Json[];
    const fifth = await served(cookie, String(list.find((c) => c.name === 'Campanha 5')?.imageUrl));
    expect(fifth.bytes.equals(largest(4))).toBe(true);
  }, 120_000);
});

describe('large accounts', () => {
  it('streams 100,000 contacts out page by page and restores them in one transaction', async () => {
    const source = await newCustomer(ctx, { planType: 'enterprise' });
    await ctx.database.db.execute(sql`
      insert into contacts (user_id, name, phone, tags, email)
      select ${source.user.id}, 'Contato ' || i, '+55219' || (10000000 + i)::text, array['lote', 'tag' || (i % 7)],
        case when i % 3 = 0 then 'c' || i || '@example.com' end
      from generate_series(1, 100000) as i`);
    const started = Date.now();
    const { res } = await download(source.cookie);
    const exportMs = Date.now() - started;
    const b = backupFile.parse(JSON.parse(res.body));
    expect(b.contacts).toHaveLength(100_000);
    expect(new Set(b.contacts.map((c) => c.phone)).size).toBe(100_000);

    const target = await newCustomer(ctx, { planType: 'enterprise' });
    const restoreStarted = Date.now();
    const result = await restoreOk(target.cookie, res.body);
    const restoreMs = Date.now() - restoreStarted;
    expect(result.contacts).toEqual(counts(100_000));
    const same = rowsOf<{ n: number }>(
      await ctx.database.db.execute(sql`
        select count(*)::int as n from contacts a join contacts b
          on b.user_id = ${target.user.id} and b.phone = a.phone and b.name = a.name and b.tags = a.tags
          and b.email is not distinct from a.email and b.created_at = date_trunc('milliseconds', a.created_at)
        where a.user_id = ${source.user.id}`),
    );
    expect(same[0].n).toBe(100_000);
    // Generous bounds for a shared machine; they catch a query per row, not a slow disk.
    expect(exportMs).toBeLessThan(60_000);
    expect(restoreMs).toBeLessThan(90_000);
    const again = await restoreOk(target.cookie, res.body);
    expect(again.contacts).toEqual(counts(0, 0, 100_000));
  }, 240_000);
});

async function tableCounts(userId: string) {
  const [row] = rowsOf<Record<string, number>>(
    await ctx.database.db.execute(sql`
      select
        (select count(*)::int from contacts where user_id = ${userId}) as contacts,
        (select count(*)::int from groups where user_id = ${userId}) as groups,
        (select count(*)::int from campaigns where user_id = ${userId}) as campaigns,
        (select count(*)::int from campaign_recipients where user_id = ${userId}) as recipients,
        (select count(*)::int from saved_messages where user_id = ${userId}) as saved_messages,
        (select count(*)::int from auto_replies where user_id = ${userId}) as auto_replies,
        (select count(*)::int from bot_configs where user_id = ${userId}) as bot_configs,
        (select count(*)::int from account_settings where user_id = ${userId}) as account_settings`),
  );
  return row;
}
