import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CAMPAIGN_RUNNING, campaignMsg } from '../../contract/campaigns';
import { accountSql } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { MicroBatch } from '../lib/micro-batch';
import { statusIn } from './campaign-lifecycle';
import type { CampaignContent } from './content';

/** A recipient row claimed for sending, with what its campaign sends. */
export interface ClaimedRow extends CampaignContent {
  id: string;
  recipient: string;
  kind: 'contact' | 'group';
  name: string;
  email: string | null;
  attempts: number;
  providerMessageId: string | null;
  /** The contact behind the row, when its number was never checked on WhatsApp. */
  uncheckedContactId: string | null;
}

interface HandOverItem {
  id: string;
  chooseIds: boolean;
}

/** A row handed over: its attempt counted and its message id, as now written. */
interface HandedOver {
  attempts: number;
  providerMessageId: string | null;
}

/**
 * The number a lane sends through: it claims the rows given to it, and the rows not given to any
 * number yet of the running campaigns it sends (those that chose it, and, for its account's
 * default number, those that chose none).
 */
export interface LaneScope {
  userId: string;
  connectionId: string;
  isDefault: boolean;
}

/** Campaigns whose rows may be claimed and handed over: the running ones. */
const SENDABLE = CAMPAIGN_RUNNING;

/**
 * The claims of one process on recipient rows. A claim only reserves a row (it stays `queued`,
 * leased to this process); each row becomes `sending` right before its own send, in one statement
 * that also reads its campaign's status (handOver), so a pause or cancel that lands between the
 * claim and the send stops that send.
 */
export class RowClaims {
  /** Rows this process claimed and has not handed over yet (released at stop). */
  private readonly held = new Set<string>();
  /** Hand-overs asked for while the last one was being written go together in the next statement. */
  private readonly handOvers = new MicroBatch<HandOverItem, HandedOver | null>((items) => this.handOverRows(items));

  constructor(
    private readonly opts: {
      db: Db;
      log: FastifyBaseLogger;
      /** This process, as claims name it. */
      owner: string;
      /** How long a claimed row is held. */
      leaseMs: number;
      /** The only process on the database (see DispatcherOptions.exclusive). */
      exclusive: boolean;
    },
  ) {}

  private get db(): Db {
    return this.opts.db;
  }

  private get owner(): string {
    return this.opts.owner;
  }

  /**
   * Rows left `sending` by a process that stopped mid-send go back to the queue, keeping the
   * message id chosen for them: a receipt for that id moves the row on (so it is not sent again),
   * and a personal number resends under the same id. With `all`, every such row (the only process).
   * Answers how many.
   */
  async reconcile(all: boolean): Promise<number> {
    const result = await this.db.execute(sql`
      update campaign_recipients set status = 'queued', claimed_by = null, lease_until = null, updated_at = now()
      where status = 'sending' and ${all ? sql`true` : sql`lease_until < now()`}
      returning id
    `);
    return rowsOf(result).length;
  }

  /**
   * Rows claimed by processes not in `live` (a subquery of the live ids): the ones caught mid-send
   * go back to the queue, the merely claimed ones are free; answers how many.
   */
  async freeDead(live: SQL): Promise<number> {
    const result = await this.db.execute(sql`
      update campaign_recipients set
        status = case when status = 'sending' then 'queued' else status end,
        claimed_by = null, lease_until = null,
        updated_at = case when status = 'sending' then now() else updated_at end
      where lease_until is not null and claimed_by is not null and claimed_by not in (${live})
        and status in ('queued', 'sending')
      returning id`);
    return rowsOf(result).length;
  }

  /** Claimed, never sent: free for the next process at once rather than when the claim lapses. */
  async releaseHeld(): Promise<void> {
    if (!this.held.size) return;
    const ids = [...this.held];
    this.held.clear();
    await this.db
      .execute(sql`
        update campaign_recipients set claimed_by = null, lease_until = null
        where id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and claimed_by = ${this.owner} and status = 'queued'`)
      .catch(() => undefined);
  }

  /**
   * Reserves the next due rows: they stay `queued` (a pause leaves them there, a cancel skips them)
   * and are leased to this process; each becomes `sending` only when handed over (handOver). A
   * row another process claimed is passed over until its claim lapses; on the embedded database,
   * where this process is the only one, so is only a claim of its own (what a previous run held is
   * free at once).
   */
  async claim(lane: LaneScope, n: number): Promise<ClaimedRow[]> {
    const free = this.opts.exclusive
      ? sql`(r2.claimed_by is distinct from ${this.owner} or r2.lease_until < now())`
      : sql`(r2.lease_until is null or r2.lease_until < now())`;
    const conn = lane.connectionId;
    // A row is this number's, or nobody's yet and in a campaign this number sends.
    const mine = sql`(r2.connection_id = ${conn}::uuid or (r2.connection_id is null and (${conn}::uuid = any(c2.connection_ids)
      or (cardinality(c2.connection_ids) = 0 and ${lane.isDefault}::boolean))))`;
    const rows = rowsOf<ClaimedRow>(
      await this.db.execute(sql`
        update campaign_recipients r set
          claimed_by = ${this.owner}, lease_until = now() + ${`${this.opts.leaseMs} milliseconds`}::interval,
          connection_id = ${conn}::uuid
        from campaigns c
        where c.id = r.campaign_id and r.id in (
          select r2.id from campaign_recipients r2 join campaigns c2 on c2.id = r2.campaign_id
          where ${accountSql(lane.userId, 'r2.user_id')} and r2.status = 'queued' and r2.due_at <= now() and ${free}
            and c2.status ${statusIn(SENDABLE)} and ${mine}
          order by r2.due_at
          limit ${n}
          for update of r2 skip locked
        )
        returning r.id, r.campaign_id as "campaignId", r.recipient, r.kind, r.name, r.email, r.attempts,
          r.provider_message_id as "providerMessageId",
          (select ct.id from contacts ct where ct.id = r.contact_id and ct.is_whatsapp_active is null) as "uncheckedContactId",
          c.message, c.image_url as "imageUrl", c.media_url as "mediaUrl",
          (select json_build_object('id', m.id, 'kind', m.kind, 'mimeType', m.mime_type, 'fileName', m.file_name,
              'voice', m.voice, 'durationSeconds', m.duration_seconds)
            from media_uploads m
            where ${accountSql(lane.userId, 'm.user_id')} and c.media_url like 'upload:%'
              and m.id::text = substring(c.media_url from 8) and m.state = 'ready') as "mediaFile",
          c.location, c.contact_card as "contactCard",
          c.template_name as "templateName",
          c.template_language as "templateLanguage", c.template_variables as "templateVariables"
      `),
    );
    for (const r of rows) {
      this.held.add(r.id);
      // The embedded database may hand jsonb back as text.
      const vars: unknown = r.templateVariables;
      if (typeof vars === 'string') r.templateVariables = JSON.parse(vars);
      else if (vars == null) r.templateVariables = [];
      const file: unknown = r.mediaFile;
      if (typeof file === 'string') r.mediaFile = JSON.parse(file);
      if (typeof r.location === 'string') r.location = JSON.parse(r.location);
      if (typeof r.contactCard === 'string') r.contactCard = JSON.parse(r.contactCard);
      r.attempts = Number(r.attempts);
    }
    return rows;
  }

  /**
   * A number stopped taking recipients (disconnected, restricted, logged out, at its daily limit,
   * paused): its queued rows (claimed here or given to it) go back to the campaign's other numbers
   * at once. A row already handed to the network stays with it. Answers how many moved.
   */
  async releaseNumber(connectionId: string): Promise<number> {
    const rows = rowsOf<{ id: string }>(
      await this.db.execute(sql`
        update campaign_recipients set connection_id = null, claimed_by = null, lease_until = null
        where connection_id = ${connectionId}::uuid and status = 'queued'
        returning id`),
    );
    for (const r of rows) this.held.delete(r.id);
    return rows.length;
  }

  /**
   * A claimed contact turned out to have no WhatsApp: its row is skipped with that reason (if it is
   * still queued and still this process's claim).
   */
  async skipWithoutWhatsapp(row: ClaimedRow): Promise<void> {
    await this.db.execute(sql`
      update campaign_recipients set status = 'skipped', error = ${campaignMsg.reason.noWhatsapp},
        claimed_by = null, lease_until = null, updated_at = now()
      where id = ${row.id} and status = 'queued' and claimed_by = ${this.owner}`);
    this.held.delete(row.id);
  }

  /**
   * The moment a claimed row is given to the network: the row becomes `sending` (its attempt
   * counted, its message id chosen where the driver takes one) only if it is still queued, still
   * claimed by this process and its campaign is still sending; the check and the mark are one
   * statement. Otherwise the claim is let go and the row left as the pause (`queued`), the cancel
   * (`skipped`) or another process made it; a deleted campaign's row is gone. A pause or cancel
   * committed before that statement stops the send; one committed after it finds the row
   * `sending`, and the message, already handed to the driver, counts as sent. When the statement
   * cannot be written the row is not sent (its claim lapses and it is sent later).
   */
  async handOver(row: ClaimedRow, chooseIds: boolean): Promise<boolean> {
    this.held.delete(row.id);
    let handed: HandedOver | null;
    try {
      handed = await this.handOvers.add({ id: row.id, chooseIds });
    } catch (err) {
      this.held.add(row.id);
      this.opts.log.warn({ err }, 'a campaign recipient could not be handed over; it will be sent later');
      return false;
    }
    if (!handed) return false;
    row.attempts = handed.attempts;
    row.providerMessageId = handed.providerMessageId;
    return true;
  }

  /**
   * The statement behind handOver, for every row asked for while the last one ran (on the Cloud API
   * many sends start each second; a personal number has one at a time): an update by primary key,
   * each row joined to its campaign by primary key.
   */
  private async handOverRows(items: HandOverItem[]): Promise<Array<HandedOver | null>> {
    const go = sql`(r.status = 'queued' and c.status ${statusIn(SENDABLE)})`;
    const values = sql.join(
      items.map((i) => sql`(${i.id}::uuid, ${i.chooseIds}::boolean)`),
      sql`, `,
    );
    const rows = rowsOf<{ id: string; status: string; attempts: number; provider_message_id: string | null }>(
      await this.db.execute(sql`
        update campaign_recipients r set
          status = case when ${go} then 'sending' else r.status end,
          attempts = case when ${go} then r.attempts + 1 else r.attempts end,
          provider_message_id = case when ${go} and v.choose
            then coalesce(r.provider_message_id, '3EB0' || upper(substr(md5(random()::text || r.id::text), 1, 18)))
            else r.provider_message_id end,
          claimed_by = case when ${go} then r.claimed_by end,
          lease_until = case when ${go} then now() + ${`${this.opts.leaseMs} milliseconds`}::interval end,
          updated_at = case when ${go} then now() else r.updated_at end
        from (values ${values}) as v(id, choose), campaigns c
        where r.id = v.id and r.claimed_by = ${this.owner} and c.id = r.campaign_id
        returning r.id, r.status, r.attempts, r.provider_message_id
      `),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return items.map((i) => {
      const r = byId.get(i.id);
      if (r?.status !== 'sending') return null;
      return { attempts: Number(r.attempts), providerMessageId: r.provider_message_id ?? null };
    });
  }
}
