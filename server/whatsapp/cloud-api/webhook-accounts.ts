import { eq } from 'drizzle-orm';
import { acrossAccounts } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { whatsappBusinessAccounts } from '../../db/schema';
import { decryptSecret } from '../../lib/crypto';

/** How long a webhook key's account (and its decrypted app secret) is used without reading it again. */
const WEBHOOK_ACCOUNT_CACHE_MS = 30_000;

/** The number a webhook key belongs to, with what its deliveries are checked against. */
export interface WebhookAccount {
  userId: string;
  connectionId: string;
  phoneNumberId: string;
  verifyToken: string;
  appSecret: string | null;
  at: number;
}

/**
 * The Cloud numbers behind the webhook keys: Meta's webhooks come in bursts, so the account behind
 * a key (its app secret decrypted) is kept a while, not read for each one.
 */
export class WebhookAccounts {
  private readonly byKey = new Map<string, WebhookAccount>();

  constructor(
    private readonly db: Db,
    private readonly encryptionKey: Buffer,
  ) {}

  /** The account behind a key (`fresh`: read again, not the kept one); undefined for an unknown key. */
  async get(key: string, fresh = false): Promise<WebhookAccount | undefined> {
    if (!/^[0-9a-f]{32}$/.test(key)) return undefined;
    const cached = this.byKey.get(key);
    if (cached && !fresh && Date.now() - cached.at < WEBHOOK_ACCOUNT_CACHE_MS) return cached;
    // By the webhook key, unique across accounts: the row names its account.
    const [row] = await this.db
      .select()
      .from(acrossAccounts(whatsappBusinessAccounts))
      .where(eq(whatsappBusinessAccounts.webhookKey, key))
      .limit(1);
    if (!row) {
      this.byKey.delete(key);
      return undefined;
    }
    const account: WebhookAccount = {
      userId: row.userId,
      connectionId: row.connectionId,
      phoneNumberId: row.phoneNumberId,
      verifyToken: row.verifyToken,
      appSecret: row.appSecret ? decryptSecret(this.encryptionKey, row.appSecret) : null,
      at: Date.now(),
    };
    if (this.byKey.size >= 10_000) this.byKey.clear();
    this.byKey.set(key, account);
    return account;
  }

  /** The number's credentials changed: what was kept of them goes. */
  forgetConnection(connectionId: string): void {
    for (const [key, account] of this.byKey) {
      if (account.connectionId === connectionId) this.byKey.delete(key);
    }
  }

  clear(): void {
    this.byKey.clear();
  }
}
