import { type SQL, sql } from 'drizzle-orm';
import { campaignMsg } from '../../contract/campaigns';
import { accountSql } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

/** Who a campaign is for, as its fields say: the account and the audience it chose. */
export interface AudienceSelection {
  userId: string;
  targetType: 'all' | 'groups' | 'contacts';
  targetGroups: string[];
  targetTags: string[];
}

export interface PlannedCampaign extends AudienceSelection {
  id: string;
  /** The numbers that send it (empty: the account's default). */
  connectionIds?: string[];
}

export interface PlanResult {
  total: number;
  queued: number;
  skipped: number;
}

const R = campaignMsg.reason;

/**
 * The recipient rows an audience makes, one select per kind (contacts, then groups), each giving the
 * columns of `campaign_recipients` it fills: contact_id, recipient, kind, name, email, status, error.
 * This is the one rule of who receives a campaign, who is skipped and why — opted out, a number known
 * to have no WhatsApp, over the plan's contact limit, a group not linked to WhatsApp: the planner
 * writes these rows, `countAudience` counts them before a campaign is saved.
 */
function audienceSelects(c: AudienceSelection, contactLimit: number | null): SQL[] {
  const selects: SQL[] = [];
  if (c.targetType === 'all' || c.targetType === 'contacts') {
    const tags = c.targetType === 'contacts' && c.targetTags.length ? c.targetTags : null;
    const tagFilter = tags
      ? sql`and c.tags && array[${sql.join(
          tags.map((t) => sql`${t}`),
          sql`, `,
        )}]::text[]`
      : sql``;
    const numbered =
      contactLimit === null
        ? sql`select c.*, 0 as n from contacts c where ${accountSql(c.userId, 'c.user_id')} and c.is_active ${tagFilter}`
        : sql`select c.*, row_number() over (order by c.created_at, c.id) as n
              from contacts c where ${accountSql(c.userId, 'c.user_id')} and c.is_active ${tagFilter}`;
    const limit = contactLimit ?? 0;
    const overLimit = contactLimit === null ? sql`false` : sql`c.n > ${limit}`;
    selects.push(sql`
      select c.id as contact_id, replace(c.phone, '+', '') as recipient, 'contact' as kind, c.name, c.email,
        case when c.opted_out or c.is_whatsapp_active = false or length(replace(c.phone, '+', '')) < 10 or ${overLimit}
          then 'skipped' else 'queued' end as status,
        case
          when c.opted_out then ${R.optedOut}
          when c.is_whatsapp_active = false then ${R.noWhatsapp}
          when length(replace(c.phone, '+', '')) < 10 then ${R.invalidNumber}
          when ${overLimit} then ${R.planLimit}
        end as error
      from (${numbered}) c`);
  }
  // A 'groups' audience without any group has no group (a saved campaign always names one).
  if (c.targetType === 'all' || (c.targetType === 'groups' && c.targetGroups.length > 0)) {
    const names = c.targetType === 'groups' ? c.targetGroups.map((n) => n.toLowerCase()) : null;
    const nameFilter = names
      ? sql`and lower(g.name) in (${sql.join(
          names.map((n) => sql`${n}`),
          sql`, `,
        )})`
      : sql``;
    // Two groups of the account linked to one WhatsApp group are one recipient: the oldest names it.
    selects.push(sql`
      select distinct on (g.recipient) null::uuid as contact_id, g.recipient, 'group' as kind, g.name, null::text as email,
        case when g.whatsapp_group_id = '' then 'skipped' else 'queued' end as status,
        case when g.whatsapp_group_id = '' then ${R.groupNotLinked} end as error
      from (
        select g.*, case when g.whatsapp_group_id = '' then 'group:' || g.id::text else g.whatsapp_group_id end as recipient
        from groups g
        where ${accountSql(c.userId, 'g.user_id')} and g.is_active ${nameFilter}
      ) g
      order by g.recipient, g.created_at, g.id`);
  }
  return selects;
}

/**
 * Writes one recipient row per recipient of a campaign, inside the caller's transaction: the whole
 * audience in one statement per kind, computed by the database from the account's contacts and
 * groups (no row travels to the server and back). Rows already there are kept (unique on campaign +
 * recipient), so planning twice writes nothing twice. Who must not receive becomes a `skipped` row
 * with the reason (see `audienceSelects`).
 */
export async function planRecipients(tx: Db, c: PlannedCampaign, contactLimit: number | null): Promise<PlanResult> {
  for (const audience of audienceSelects(c, contactLimit)) {
    await tx.execute(sql`
      insert into campaign_recipients (campaign_id, user_id, contact_id, recipient, kind, name, email, status, error)
      select ${c.id}, ${c.userId}, a.contact_id, a.recipient, a.kind, a.name, a.email, a.status, a.error
      from (${audience}) a
      on conflict on constraint campaign_recipients_campaign_recipient_key do nothing
    `);
  }
  // Sticky sender: a contact talking with one of the chosen numbers gets the campaign from that
  // number while it can send (its row is given to it now; if the number stops, its rows go to the
  // others). A contact with conversations on several of them: the one with the latest activity.
  if ((c.connectionIds?.length ?? 0) > 1) {
    await tx.execute(sql`
      update campaign_recipients r set connection_id = v.connection_id
      from (
        select distinct on (v.phone) v.phone, v.connection_id
        from conversations v join connections n on n.id = v.connection_id
        where ${accountSql(c.userId, 'v.user_id')} and v.connection_id = any(${sql.param(c.connectionIds)}::uuid[])
          and not n.paused and (n.stop_reason is null or n.stop_reason in ('outside_hours', 'messaging_limit'))
        order by v.phone, v.last_message_at desc
      ) v
      where r.campaign_id = ${c.id} and r.status = 'queued' and r.kind = 'contact' and v.phone = r.recipient`);
  }
  const [counts] = rowsOf<{ total: number; queued: number }>(
    await tx.execute(sql`
      select count(*)::int as total, (count(*) filter (where status = 'queued'))::int as queued
      from campaign_recipients where campaign_id = ${c.id}
    `),
  );
  return { total: counts.total, queued: counts.queued, skipped: counts.total - counts.queued };
}

export interface AudienceCount {
  /** The recipient rows a start would write now. */
  total: number;
  /** Those that would be sent, by kind. */
  queued: number;
  contacts: number;
  groups: number;
  /** Those that would be skipped, with each reason and its count (most first). */
  skipped: number;
  skippedReasons: Array<{ reason: string; count: number }>;
}

/**
 * What a start would write for this audience now, counted without writing: the rows of
 * `audienceSelects`, grouped. For the campaign dialog's 'N destinatários' before saving.
 */
export async function countAudience(db: Db, c: AudienceSelection, contactLimit: number | null): Promise<AudienceCount> {
  const out: AudienceCount = { total: 0, queued: 0, contacts: 0, groups: 0, skipped: 0, skippedReasons: [] };
  const selects = audienceSelects(c, contactLimit);
  if (!selects.length) return out;
  const rows = rowsOf<{ kind: string; status: string; error: string | null; n: number }>(
    await db.execute(sql`
      select a.kind, a.status, a.error, count(*)::int as n
      from (${sql.join(
        selects.map((s) => sql`(${s})`),
        sql` union all `,
      )}) a
      group by a.kind, a.status, a.error
    `),
  );
  const reasons = new Map<string, number>();
  for (const r of rows) {
    out.total += r.n;
    if (r.status === 'queued') {
      out.queued += r.n;
      if (r.kind === 'group') out.groups += r.n;
      else out.contacts += r.n;
    } else {
      out.skipped += r.n;
      const reason = r.error ?? '';
      reasons.set(reason, (reasons.get(reason) ?? 0) + r.n);
    }
  }
  out.skippedReasons = [...reasons]
    .map(([reason, count]) => ({ reason, count }))
    .sort((x, y) => y.count - x.count || x.reason.localeCompare(y.reason));
  return out;
}

/**
 * The contacts of an audience a start would send to that have no name (their {{nome}} takes the
 * variable's fallback): how many, and the first `n` numbers. Read from `audienceSelects`, so who
 * counts is the planner's own rule.
 */
export async function namelessInAudience(
  db: Db,
  c: AudienceSelection,
  contactLimit: number | null,
  n: number,
): Promise<{ count: number; phones: string[] }> {
  if (c.targetType === 'groups') return { count: 0, phones: [] };
  const [contactsSelect] = audienceSelects({ ...c, targetType: c.targetType, targetGroups: [] }, contactLimit);
  if (!contactsSelect) return { count: 0, phones: [] };
  const [row] = rowsOf<{ count: number; phones: string[] | null }>(
    await db.execute(sql`
      with nameless as (
        select a.recipient from (${contactsSelect}) a where a.status = 'queued' and btrim(a.name) = ''
      )
      select (select count(*)::int from nameless) as count,
             array(select '+' || recipient from nameless order by recipient limit ${n}) as phones
    `),
  );
  return { count: row?.count ?? 0, phones: row?.phones ?? [] };
}
