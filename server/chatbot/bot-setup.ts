import { asc, sql } from 'drizzle-orm';
import { type AutoReplyRule, type BotButton, DEFAULT_BOT_CONFIG } from '../../contract/bot';
import { BUSINESS_DAYS, DEFAULT_WHATSAPP_SETTINGS } from '../../contract/constants';
import type { BusinessHours } from '../../contract/sending-time';
import { accountSql, ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { autoReplies, botConfigs } from '../db/schema';
import { TtlCache } from '../lib/ttl-cache';
import { RuleMatcher } from './matcher';

export interface StoredRule extends AutoReplyRule {
  id: string;
  buttons: BotButton[];
}

/** What the reply pipeline needs of an account: its bot config, rules (compiled) and business hours. */
export interface BotSetup {
  isEnabled: boolean;
  welcomeMessage: string;
  aiEnabled: boolean;
  aiModel: string;
  aiInstructions: string;
  outOfHoursMessage: string;
  handoffMinutes: number;
  rules: StoredRule[];
  matcher: RuleMatcher<StoredRule>;
  /** Respected or not by campaigns, the out-of-hours message always goes by them. */
  hours: Omit<BusinessHours, 'respectBusinessHours'>;
  businessName: string;
}

interface Versions {
  bot: string | null;
  settings: string | null;
  name: string;
}

/**
 * Reads an account's setup for each inbound message. Compiling 1,000 rules is not free, so the
 * compiled setup is kept per account and reused while the config's and the settings' `updated_at`
 * are unchanged, looked at most once a second: a save in this process is seen at once (the module
 * invalidates), in another process within a second.
 */
export class BotSetupCache {
  /** Per account: the setup and the versions it was read at (`peek`ed once its time is up, to check them). */
  private readonly cache: TtlCache<string, { key: string; setup: BotSetup }>;

  constructor(
    private readonly db: Db,
    /** How long a setup is used without looking at its versions (a save in another process shows within this). */
    recheckMs = 1000,
    maxAccounts = 5000,
  ) {
    this.cache = new TtlCache({ ttlMs: recheckMs, maxEntries: maxAccounts });
  }

  /** A save in this process is seen at once. */
  invalidate(userId: string): void {
    this.cache.delete(userId);
  }

  async get(userId: string): Promise<BotSetup> {
    const fresh = this.cache.get(userId);
    if (fresh) return fresh.setup;
    const versions = await this.versions(userId);
    const key = `${versions.bot}|${versions.settings}|${versions.name}`;
    const hit = this.cache.peek(userId);
    if (hit && hit.key === key) {
      this.cache.set(userId, hit);
      return hit.setup;
    }
    const setup = await this.load(userId, versions.name);
    this.cache.set(userId, { key, setup });
    return setup;
  }

  private async versions(userId: string): Promise<Versions> {
    const result = await this.db.execute(sql`
      select (select updated_at::text from bot_configs where ${accountSql(userId)}) as bot,
             (select updated_at::text from account_settings where ${accountSql(userId)}) as settings,
             coalesce((select coalesce(nullif(company, ''), name) from users where id = ${userId}), '') as name`);
    return rowsOf<Versions>(result)[0] ?? { bot: null, settings: null, name: '' };
  }

  private async load(userId: string, businessName: string): Promise<BotSetup> {
    const [config] = await this.db.select().from(botConfigs).where(ofAccount(botConfigs, userId));
    const rows = await this.db
      .select()
      .from(autoReplies)
      .where(ofAccount(autoReplies, userId))
      .orderBy(asc(autoReplies.position), asc(autoReplies.createdAt));
    const settings = await this.db.execute(
      sql`select business_start, business_end, business_days from account_settings where ${accountSql(userId)}`,
    );
    const s = rowsOf<{ business_start: string; business_end: string; business_days: string[] }>(settings)[0];
    const rules: StoredRule[] = rows.map((r) => ({
      id: r.id,
      trigger: r.trigger,
      response: r.response,
      type: r.type,
      buttons: (r.buttons as BotButton[]) ?? [],
      imageUrl: r.imageUrl,
      mediaUrl: r.mediaUrl,
      location: (r.location as StoredRule['location']) ?? null,
      contactCard: (r.contactCard as StoredRule['contactCard']) ?? null,
      queueId: r.queueId,
      isActive: r.isActive,
    }));
    const d = DEFAULT_BOT_CONFIG;
    return {
      isEnabled: config?.isEnabled ?? d.isEnabled,
      welcomeMessage: config?.welcomeMessage ?? d.welcomeMessage,
      aiEnabled: config?.aiEnabled ?? d.aiEnabled,
      aiModel: config?.aiModel ?? d.aiModel,
      aiInstructions: config?.aiInstructions ?? d.aiInstructions,
      outOfHoursMessage: config?.outOfHoursMessage ?? d.outOfHoursMessage,
      handoffMinutes: config?.handoffMinutes ?? d.handoffMinutes,
      rules,
      matcher: new RuleMatcher(rules),
      hours: {
        businessStart: s?.business_start ?? DEFAULT_WHATSAPP_SETTINGS.businessStart,
        businessEnd: s?.business_end ?? DEFAULT_WHATSAPP_SETTINGS.businessEnd,
        businessDays: s?.business_days ?? [...BUSINESS_DAYS],
      },
      businessName,
    };
  }
}
