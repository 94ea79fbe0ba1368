import { PgTransaction } from 'drizzle-orm/pg-core';
import { type ActivityKind, settingsSections } from '../../contract/activity';
import { notificationLinks, notificationMsg } from '../../contract/notifications';
import { countLabel } from '../../contract/plural';
import type { Db } from '../db/client';
import { insertActivity } from './activity';
import { type ErrorLog, heard, insertNotification, type NewNotification } from './notify';

/** Whose event it is: the account, and who acted (an `AccountContext` is one; null for the system). */
export interface EventAccount {
  userId: string;
  actorId: string | null;
}

/** What each kind of event carries besides its account. */
interface EventData {
  login: object;
  campaign_created: { campaign: string };
  campaign_started: { campaign: string };
  campaign_paused: { campaign: string };
  campaign_resumed: { campaign: string };
  campaign_cancelled: { campaign: string };
  /** The send loop paused a running campaign, for `reason`. */
  campaign_halted: { campaignId: string; campaign: string; reason: string };
  campaign_completed: { campaignId: string; campaign: string; sent: number; failed: number };
  campaign_failed: { campaignId: string; campaign: string; failed: number };
  contacts_imported: { file: string; message: string };
  /** The export's file, how many contacts it holds, and the list's filters it kept. */
  contacts_exported: { file: string; count: number; tag?: string; q?: string };
  report_exported: { file: string };
  settings_changed: { section: keyof typeof settingsSections };
  bot_changed: object;
  /** An invitation sent or cancelled, a member who joined, a role or a member's access changed: in words. */
  team_changed: { detail: string };
}

export type EventKind = keyof EventData;

/** One event of an account, as `record` writes it. */
export type AccountEvent = { [K in EventKind]: { kind: K; by: EventAccount } & EventData[K] }[EventKind];
type EventOf<K extends EventKind> = Extract<AccountEvent, { kind: K }>;

/** A change every process applies (this one included): the sending settings, the bot's config. */
export type AccountChange = 'settings' | 'bot-config';

interface EventRule<E> {
  /** The activity log's line (Verificação → Atividade). */
  activity: ActivityKind;
  detail?: (e: E) => string;
  /** The account's notification, when the event has one (its settings may silence it). */
  notification?: (e: E) => NewNotification;
  /** The change the other processes must apply, when the event has one. */
  announces?: (e: E) => AccountChange | null;
}

/** The one vocabulary: each event kind's activity line, notification and cross-process change. */
const rules: { [K in EventKind]: EventRule<EventOf<K>> } = {
  login: { activity: 'login' },
  campaign_created: { activity: 'campaign_created', detail: (e) => e.campaign },
  campaign_started: { activity: 'campaign_started', detail: (e) => e.campaign },
  campaign_paused: { activity: 'campaign_paused', detail: (e) => e.campaign },
  campaign_resumed: { activity: 'campaign_resumed', detail: (e) => e.campaign },
  campaign_cancelled: { activity: 'campaign_cancelled', detail: (e) => e.campaign },
  campaign_halted: {
    activity: 'campaign_paused',
    detail: (e) => `${e.campaign}: ${e.reason}`,
    notification: (e) => ({
      kind: 'campaign_paused',
      title: notificationMsg.campaignPaused.title,
      body: notificationMsg.campaignPaused.body(e.campaign, e.reason),
      link: notificationLinks.campaign(e.campaignId),
    }),
  },
  campaign_completed: {
    activity: 'campaign_finished',
    detail: (e) => e.campaign,
    notification: (e) => ({
      kind: 'campaign_completed',
      title: notificationMsg.campaignCompleted.title,
      body: notificationMsg.campaignCompleted.body(e.campaign, e.sent, e.failed),
      link: notificationLinks.campaign(e.campaignId),
    }),
  },
  campaign_failed: {
    activity: 'campaign_failed',
    detail: (e) => e.campaign,
    notification: (e) => ({
      kind: 'campaign_failed',
      title: notificationMsg.campaignFailed.title,
      body: notificationMsg.campaignFailed.body(e.campaign, e.failed),
      link: notificationLinks.campaign(e.campaignId),
    }),
  },
  contacts_imported: {
    activity: 'contacts_imported',
    detail: (e) => `${e.file}: ${e.message}`,
    notification: (e) => ({
      kind: 'contacts_imported',
      title: notificationMsg.contactsImported.title,
      body: e.message,
      link: notificationLinks.contacts,
    }),
  },
  contacts_exported: {
    activity: 'contacts_exported',
    detail: (e) => {
      const narrowed = [e.tag ? `tag ${e.tag}` : '', e.q?.trim() ? `busca “${e.q.trim()}”` : '']
        .filter(Boolean)
        .join(', ');
      return `${e.file}: ${countLabel(e.count, 'contato', 'contatos')}${narrowed ? ` (${narrowed})` : ''}`;
    },
  },
  report_exported: { activity: 'report_exported', detail: (e) => e.file },
  settings_changed: {
    activity: 'settings_changed',
    detail: (e) => settingsSections[e.section],
    // A running or waiting campaign applies the sending settings to its next message, on whichever process sends it.
    announces: (e) => (e.section === 'whatsapp' ? 'settings' : null),
  },
  // The chatbot recompiles; the bot's dialog also saves the business hours the send loop keeps to.
  bot_changed: { activity: 'bot_changed', announces: () => 'bot-config' },
  team_changed: { activity: 'team_changed', detail: (e) => e.detail },
};

/** Where `record` reports, announces and tells. */
export interface EventSinks {
  log: ErrorLog;
  /** Tells every process of a change (AppDeps `announce`); the events that announce one need it. */
  announce?: (change: AccountChange, userId: string) => void;
  /**
   * The app's database when `tx` is one of its transactions: its notification listeners (the
   * e-mail notices, `onNotification`) hear of a notification `record` wrote.
   */
  db?: Db;
}

/** What a use case that records its events receives: the database and the sinks. */
export type Recording = EventSinks & { db: Db };

/**
 * Records an event of an account: its activity line and, when it has one, its notification, written
 * together inside the caller's transaction (`tx` may be the database itself), then the change it
 * announces to every process. Called after the thing it records succeeded; never throws: rows that
 * could not be written are logged (in a savepoint, so the caller's transaction goes on) and must not
 * fail the action, and the change is announced whatever the write did.
 */
export async function record(tx: Db, event: AccountEvent, sinks: EventSinks): Promise<void> {
  const rule = rules[event.kind] as EventRule<AccountEvent>;
  const { userId, actorId } = event.by;
  const activity = { userId, actorId, kind: rule.activity, detail: rule.detail?.(event) };
  const notification = rule.notification?.(event);
  try {
    let stored = false;
    // One statement needs no transaction of its own; two go together, and inside the caller's
    // transaction a savepoint keeps a failed write from aborting it.
    if (!notification && !(tx instanceof PgTransaction)) {
      await insertActivity(tx, activity);
    } else {
      stored = await tx.transaction(async (t) => {
        await insertActivity(t, activity);
        return notification ? insertNotification(t, userId, notification) : false;
      });
    }
    if (stored && notification) heard(sinks.db ?? tx, sinks.log, userId, notification);
  } catch (err) {
    sinks.log.error({ err, kind: event.kind }, 'could not record an event');
  }
  const change = rule.announces?.(event);
  if (change) {
    if (sinks.announce) sinks.announce(change, userId);
    else
      sinks.log.error({ kind: event.kind, change }, 'an event that announces a change was recorded without announce');
  }
}
