import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type ConnectionDetail,
  type ConnectionSettings,
  type ConnectionStatus,
  type ConnectionsResponse,
  type ConnectionView,
  connectionLimitFor,
  connectionsMsg,
  type createConnectionInput,
  HEALTH_SIGNALS_WARNING,
  RESTRICTION_MS,
  type updateConnectionInput,
} from '../../../contract/connections';
import { e164Of } from '../../../contract/phone';
import { startOfSaoPauloDay } from '../../../contract/sao-paulo-time';
import type { WhatsappSession } from '../../../contract/whatsapp';
import { accountSql, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { whatsappAuthKeys, whatsappBusinessAccounts } from '../../db/schema';
import { AppError } from '../../errors';
import { type CloudAccountRow, cloudAccount } from '../../whatsapp/cloud-connections';
import type { ConnectionEntry } from '../../whatsapp/connection-directory';
import type { ConnectionChanges } from '../../whatsapp/connection-store';
import type { ConnectionManager } from '../../whatsapp/manager';
import { getAccountSettings } from '../settings';
import type { CloudApiSettings } from '../whatsapp';

export interface ConnectionsDeps {
  db: Db;
  connections: ConnectionManager;
  cloudSettings: CloudApiSettings;
  /** The account's sending settings changed (a number paused, its own settings): lanes apply them at once. */
  settingsChanged: (userId: string) => void;
}

interface Account {
  id: string;
  planType: string;
}

/** One number's counts, as its card shows them. */
interface Figures {
  /** Failed sends in the last 24 h. */
  failures: number;
  /** Campaign messages sent today (São Paulo). */
  sent: number;
  /** Messages received in the last 24 h. */
  replies: number;
  /** Of the failures, those saying the contact cannot receive from the number (131026, 131050). */
  blocks: number;
  /** Contacts who opted out by writing to the number in the last 24 h (and still are). */
  optOuts: number;
}

const noFigures = (): Figures => ({ failures: 0, sent: 0, replies: 0, blocks: 0, optOuts: 0 });

/**
 * Per number: failed sends in the last 24 h (and of them the blocks), campaign messages sent today,
 * messages received in the last 24 h, from the number's hourly counters (`stats_number_hours`, kept
 * by triggers: docs/decisions/027-number-figures-by-trigger.md), so the read is at most 25 rows a
 * number however many messages the day had. "The last 24 h" is whole São Paulo hours: from the start
 * of the hour 24 h ago (24 to 25 h). The contacts who opted out writing to it in the last 24 h
 * (`contacts.opted_out_via`, chatbot/opt-out.ts) are read through the index of opted-out contacts.
 * One query for all the numbers.
 */
async function figures(db: Db, userId: string, ids: string[]) {
  const out = new Map<string, Figures>();
  for (const id of ids) out.set(id, noFigures());
  if (!ids.length) return out;
  const today = startOfSaoPauloDay(new Date()).toISOString();
  const since = new Date(Date.now() - 24 * 3_600_000).toISOString();
  const idList = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = rowsOf<{
    id: string;
    failures: number;
    blocks: number;
    sent: number;
    replies: number;
    opt_outs: number;
  }>(
    await db.execute(sql`
      with hours as (
        select connection_id as id,
          sum(failed) filter (where hour >= stats_hour(${since}::timestamptz)) as failures,
          sum(blocked) filter (where hour >= stats_hour(${since}::timestamptz)) as blocks,
          sum(sent) filter (where hour >= stats_hour(${today}::timestamptz)) as sent,
          sum(inbound) filter (where hour >= stats_hour(${since}::timestamptz)) as replies,
          0 as opt_outs
        from stats_number_hours
        where ${accountSql(userId)} and connection_id in (${idList})
          and hour >= least(stats_hour(${since}::timestamptz), stats_hour(${today}::timestamptz))
        group by connection_id
      ), opt_outs as (
        select opted_out_via as id, 0, 0, 0, 0, count(*) from contacts
        where opted_out and opted_out_via in (${idList}) and opted_out_at >= ${since}::timestamptz
          and ${accountSql(userId)}
        group by opted_out_via
      )
      select id, coalesce(sum(failures), 0)::int as failures, coalesce(sum(blocks), 0)::int as blocks,
        coalesce(sum(sent), 0)::int as sent, coalesce(sum(replies), 0)::int as replies,
        coalesce(sum(opt_outs), 0)::int as opt_outs
      from (select * from hours union all select * from opt_outs) x
      group by id`),
  );
  for (const r of rows) {
    Object.assign(out.get(r.id) ?? {}, {
      failures: Number(r.failures),
      blocks: Number(r.blocks),
      sent: Number(r.sent),
      replies: Number(r.replies),
      optOuts: Number(r.opt_outs),
    });
  }
  return out;
}

/** What a number is doing now, from its live state (personal) or its credentials (Cloud) and its record. */
function statusOf(
  entry: ConnectionEntry,
  live: WhatsappSession | null,
  cloud: { configured: boolean; ready: boolean } | null,
): ConnectionStatus {
  const restricted = entry.restrictedAt && Date.now() - entry.restrictedAt.getTime() < RESTRICTION_MS;
  if (entry.kind === 'cloud') {
    if (!cloud?.configured) return 'disconnected';
    if (!cloud.ready) return 'logged_out';
    return restricted ? 'restricted' : 'connected';
  }
  const state = live?.state ?? 'disconnected';
  if (state === 'disconnected') return entry.loggedOutAt ? 'logged_out' : 'disconnected';
  if (state === 'connected' && restricted) return 'restricted';
  return state;
}

/** The account's numbers as the "Números" page and the API show them. */
export async function listConnections(deps: ConnectionsDeps, account: Account): Promise<ConnectionsResponse> {
  const entries = await deps.connections.directory.list(account.id);
  return { connections: await views(deps, account.id, entries), limit: connectionLimitFor(account.planType) };
}

async function views(deps: ConnectionsDeps, userId: string, entries: ConnectionEntry[]): Promise<ConnectionView[]> {
  const [settings, counts, cloudRows] = await Promise.all([
    getAccountSettings(deps.db, userId),
    figures(
      deps.db,
      userId,
      entries.map((e) => e.id),
    ),
    // Every Cloud number's saved settings in one read, not one per number.
    deps.db.select().from(whatsappBusinessAccounts).where(ofAccount(whatsappBusinessAccounts, userId)),
  ]);
  const cloud = new Map(cloudRows.map((r) => [r.connectionId, r]));
  return Promise.all(
    entries.map(async (entry) => {
      const c = counts.get(entry.id) ?? noFigures();
      return view(deps, entry, settings.dailyLimit, c, cloud.get(entry.id));
    }),
  );
}

async function view(
  deps: ConnectionsDeps,
  entry: ConnectionEntry,
  accountDailyLimit: number,
  c: Figures,
  cloudRow?: CloudAccountRow,
): Promise<ConnectionView> {
  const own = entry.settings ?? {};
  const live = entry.kind === 'personal' ? deps.connections.numberStatus(entry.id) : null;
  const cloud = entry.kind === 'cloud' ? await deps.connections.cloud.readiness(entry.id) : null;
  const status = statusOf(entry, live, cloud);
  const restricted = status === 'restricted';
  const out: ConnectionView = {
    id: entry.id,
    kind: entry.kind,
    label: entry.label,
    phoneNumber: e164Of(live?.phoneNumber ?? cloud?.phoneNumber ?? entry.phoneNumber),
    status,
    isDefault: entry.isDefault,
    paused: entry.paused,
    botEnabled: entry.botEnabled,
    health: {
      level: restricted
        ? 'restricted'
        : c.failures >= 5 || c.blocks + c.optOuts >= HEALTH_SIGNALS_WARNING
          ? 'warning'
          : 'good',
      recentFailures: c.failures,
      restriction:
        restricted && entry.restrictedCode && entry.restrictedAt
          ? { code: entry.restrictedCode, at: entry.restrictedAt.toISOString() }
          : null,
      repliesToday: c.replies,
      blocks: c.blocks,
      optOuts: c.optOuts,
    },
    settings: own,
    stopReason: entry.stopReason,
    sentToday: c.sent,
    dailyLimit: own.dailyLimit ?? accountDailyLimit,
    createdAt: entry.createdAt.toISOString(),
  };
  if (entry.kind === 'cloud') {
    const config = deps.cloudSettings.configView(cloudRow ?? (await cloudAccount(deps.db, entry.id)));
    out.phoneNumberId = config.phoneNumberId ?? '';
    out.webhookUrl = config.webhookUrl;
    out.webhookPath = config.webhookPath ?? '';
    out.verifyToken = config.verifyToken ?? '';
  }
  return out;
}

/** One of the account's numbers, or a 404 (another account's number is not found either). */
export async function findConnection(deps: ConnectionsDeps, userId: string, id: string): Promise<ConnectionEntry> {
  const entry = await deps.connections.directory.get(userId, id);
  if (!entry) throw new AppError('NOT_FOUND', connectionsMsg.notFound);
  return entry;
}

async function viewOne(deps: ConnectionsDeps, entry: ConnectionEntry, cloudRow?: CloudAccountRow) {
  const [settings, counts] = await Promise.all([
    getAccountSettings(deps.db, entry.userId),
    figures(deps.db, entry.userId, [entry.id]),
  ]);
  return view(deps, entry, settings.dailyLimit, counts.get(entry.id) ?? noFigures(), cloudRow);
}

export async function getConnection(deps: ConnectionsDeps, userId: string, id: string): Promise<ConnectionDetail> {
  const entry = await findConnection(deps, userId, id);
  const base = await viewOne(deps, entry);
  const qr = entry.kind === 'personal' ? deps.connections.numberStatus(entry.id).qr : null;
  return { ...base, qr };
}

/**
 * Refuses a new number over the plan's limit (pt-BR, with what to do) before anything is asked of
 * the Graph API. Only a first answer: the limit holds in the add itself (ConnectionDirectory.insert),
 * which counts and inserts under the account's lock.
 */
async function precheckLimit(deps: ConnectionsDeps, account: Account): Promise<void> {
  const limit = connectionLimitFor(account.planType);
  if (limit === null) return;
  if ((await deps.connections.directory.list(account.id)).length >= limit) {
    throw new AppError('FORBIDDEN', connectionsMsg.limitReached(limit));
  }
}

/** Adds a number: a personal one to pair next, or a Cloud one once the Graph API accepts its credentials. */
export async function createConnection(
  deps: ConnectionsDeps,
  account: Account,
  input: z.output<typeof createConnectionInput>,
): Promise<ConnectionView> {
  await precheckLimit(deps, account);
  const directory = deps.connections.directory;
  if (input.kind === 'personal') {
    const entry = await directory.insert(account.id, { kind: 'personal', label: input.label });
    return viewOne(deps, entry);
  }
  const { kind: _kind, label, ...credentials } = input;
  const row = await deps.cloudSettings.configureNumber(credentials, async () => ({
    entry: await directory.insert(account.id, { kind: 'cloud', label }),
    created: true,
  }));
  if (row.displayPhoneNumber) {
    await directory.store.setPhoneNumber(deps.db, row.connectionId, row.displayPhoneNumber);
    directory.changed(account.id);
  }
  const entry = await findConnection(deps, account.id, row.connectionId);
  return viewOne(deps, entry, row);
}

export async function connectNumber(
  deps: ConnectionsDeps,
  userId: string,
  id: string,
  phoneNumber: string | undefined,
): Promise<{ pairingCode?: string }> {
  const entry = await findConnection(deps, userId, id);
  if (entry.kind === 'cloud') throw new AppError('CONFLICT', connectionsMsg.cloudHasNoQr);
  return deps.connections.connectNumber(entry, { phoneNumber });
}

export async function disconnectNumber(deps: ConnectionsDeps, userId: string, id: string): Promise<void> {
  const entry = await findConnection(deps, userId, id);
  if (entry.kind === 'cloud') throw new AppError('CONFLICT', connectionsMsg.cloudNoSession);
  await deps.connections.disconnectNumber(entry);
}

/**
 * Label, default, pause, the chatbot, the number's own settings, and clearing a restriction WhatsApp
 * lifted early: only what is sent changes.
 */
export async function updateConnection(
  deps: ConnectionsDeps,
  userId: string,
  id: string,
  input: z.output<typeof updateConnectionInput>,
): Promise<ConnectionView> {
  const entry = await findConnection(deps, userId, id);
  const directory = deps.connections.directory;
  if (input.isDefault === false && entry.isDefault) throw new AppError('CONFLICT', connectionsMsg.keepDefault);
  const set: ConnectionChanges = {};
  if (input.label !== undefined) set.label = input.label;
  if (input.paused !== undefined) set.paused = input.paused;
  if (input.botEnabled !== undefined) set.botEnabled = input.botEnabled;
  if (input.settings !== undefined) set.settings = mergeSettings(entry.settings ?? {}, input.settings);
  await directory.store.update(deps.db, entry.id, set);
  // Read from the row, not the cached directory: a restriction just recorded by another process is cleared too.
  const cleared = input.clearRestriction === true && (await directory.store.clearRestriction(deps.db, entry.id));
  if (input.isDefault === true && !entry.isDefault) await directory.makeDefault(userId, entry.id);
  else directory.changed(userId);
  // A lane waiting (paused, restricted) looks again at once; a running one takes the change before its next message.
  if (input.paused !== undefined || input.settings !== undefined || input.isDefault || cleared) {
    deps.settingsChanged(userId);
  }
  return viewOne(deps, await findConnection(deps, userId, id));
}

/** A field sent as null goes back to the account's setting; an absent one is kept. */
function mergeSettings(current: ConnectionSettings, patch: ConnectionSettings): ConnectionSettings {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return merged as ConnectionSettings;
}

/**
 * Removes a number: it stops sending and receiving (a personal number logs out, a Cloud number's
 * credentials go) and leaves the list; its row stays so reports still name who sent each message.
 * The oldest remaining number becomes the default when this one was.
 */
export async function removeConnection(deps: ConnectionsDeps, userId: string, id: string): Promise<void> {
  const entry = await findConnection(deps, userId, id);
  const directory = deps.connections.directory;
  if (entry.kind === 'personal') await deps.connections.disconnectNumber(entry);
  else await deps.connections.cloud.removeCredentials(entry.id);
  await deps.db.delete(whatsappAuthKeys).where(eq(whatsappAuthKeys.connectionId, entry.id));
  await directory.store.remove(deps.db, entry.id);
  directory.changed(userId);
  if (entry.isDefault) {
    const [next] = await directory.list(userId);
    if (next) await directory.makeDefault(userId, next.id);
  }
  deps.settingsChanged(userId);
}
