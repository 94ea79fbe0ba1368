import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  type BusinessProfile,
  type CloudApiConfig,
  type CloudApiHealth,
  cloudApiMsg,
  type configureCloudApiInput,
} from '../../../contract/cloud-api';
import { formatPhone } from '../../../contract/phone';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { TtlCache } from '../../lib/ttl-cache';
import { parseMessagingLimit } from '../../whatsapp/cloud-api/cloud-driver';
import { GraphApiError } from '../../whatsapp/cloud-api/graph-client';
import { type CloudAccountRow, type CloudConnections, cloudAccount } from '../../whatsapp/cloud-connections';
import type { ConnectionDirectory, ConnectionEntry } from '../../whatsapp/connection-directory';
import { DriverError } from '../../whatsapp/driver';

const HEALTH_CACHE_MS = 9_000;
/** Where Meta posts an account's webhooks (the routes in cloud-api.routes.ts), before its key. */
const WEBHOOK_PREFIX = '/api/whatsapp-business/webhook/';

/**
 * The Cloud API settings of a number: its saved configuration (no secrets), the form that checks
 * credentials against the Graph API before saving them, and the health, profile and templates read
 * through its connection (`CloudConnections`, owned by the WhatsApp layer's manager). The spec's
 * panel (`/api/whatsapp-business/*`) works on the account's primary Cloud number.
 */
export class CloudApiSettings {
  private readonly health = new TtlCache<string, CloudApiHealth>({ ttlMs: HEALTH_CACHE_MS, maxEntries: 10_000 });

  constructor(
    private readonly opts: {
      config: Config;
      db: Db;
      cloud: CloudConnections;
      directory: ConnectionDirectory;
      log: FastifyBaseLogger;
    },
  ) {
    // A driver changing state (its token refused, or working again) or new credentials: checked again.
    opts.cloud.onChange((connectionId) => this.health.delete(connectionId));
  }

  /** The account's primary Cloud number (the spec's panel), when it has one. */
  private primary(userId: string): Promise<ConnectionEntry | undefined> {
    return this.opts.directory.primary(userId, 'cloud');
  }

  configView(row: CloudAccountRow | undefined): CloudApiConfig {
    if (!row) {
      return {
        configured: false,
        phoneNumberId: null,
        businessAccountId: null,
        appId: null,
        hasAppSecret: false,
        webhookPath: null,
        webhookUrl: null,
        verifyToken: null,
      };
    }
    const webhookPath = `${WEBHOOK_PREFIX}${row.webhookKey}`;
    const base = this.opts.config.PUBLIC_URL?.replace(/\/$/, '');
    return {
      configured: true,
      phoneNumberId: row.phoneNumberId,
      businessAccountId: row.businessAccountId,
      appId: row.appId,
      hasAppSecret: row.appSecret !== null,
      webhookPath,
      webhookUrl: base ? `${base}${webhookPath}` : null,
      verifyToken: row.verifyToken,
    };
  }

  async getConfig(userId: string): Promise<CloudApiConfig> {
    const entry = await this.primary(userId);
    return this.configView(entry ? await cloudAccount(this.opts.db, entry.id) : undefined);
  }

  /** The spec's configure: the account's primary Cloud number (added once the credentials are accepted). */
  async configure(userId: string, input: z.output<typeof configureCloudApiInput>) {
    const entry = await this.primary(userId);
    const row = await this.configureNumber(input, entry ?? (() => this.opts.directory.ensurePrimary(userId, 'cloud')));
    return { success: true, message: cloudApiMsg.configured, config: this.configView(row) };
  }

  /**
   * Checks the credentials against the Graph API (phone number lookup) and saves them for a Cloud
   * number: an existing one, or the one `create` adds once they are accepted.
   */
  async configureNumber(
    input: z.output<typeof configureCloudApiInput>,
    target: ConnectionEntry | (() => Promise<{ entry: ConnectionEntry; created: boolean }>),
  ): Promise<CloudAccountRow> {
    const existing = typeof target === 'function' ? undefined : target;
    // The credentials first: whether a phone number id is a customer's is told only to its owner.
    const probe = this.opts.cloud.probe(input.accessToken, input.phoneNumberId);
    let display: string | null;
    try {
      display = (await probe.phoneInfo()).display_phone_number ?? null;
    } catch (err) {
      throw credentialsError(err);
    }
    const { entry, created } = existing
      ? { entry: existing, created: false }
      : await (target as () => Promise<{ entry: ConnectionEntry; created: boolean }>)();
    if (await this.opts.cloud.phoneNumberTaken(input.phoneNumberId, entry.id)) {
      if (created) await this.opts.directory.discard(entry.userId, entry.id);
      throw new AppError('CONFLICT', cloudApiMsg.phoneNumberInUse);
    }
    try {
      // An empty app secret keeps the saved one, so the panel can update the token alone.
      return await this.opts.cloud.saveCredentials(entry, {
        phoneNumberId: input.phoneNumberId,
        businessAccountId: input.businessAccountId ?? null,
        appId: input.appId ?? null,
        accessToken: input.accessToken,
        appSecret: input.appSecret,
        displayPhoneNumber: display,
      });
    } catch (err) {
      // Another account saved the same phone number id a moment ago (the unique index decides).
      if (!isUniqueViolation(err, 'whatsapp_business_accounts_phone_number_idx')) throw err;
      if (created) await this.opts.directory.discard(entry.userId, entry.id);
      throw new AppError('CONFLICT', cloudApiMsg.phoneNumberInUse);
    }
  }

  /** Health for the panel (polled every 10 s): answered from a short cache unless `fresh`. */
  async getHealth(userId: string, fresh = false): Promise<CloudApiHealth> {
    return this.healthOf((await this.primary(userId))?.id, fresh);
  }

  /** A Cloud number's health, from a short cache unless `fresh`. */
  async healthOf(connectionId: string | undefined, fresh = false): Promise<CloudApiHealth> {
    const key = connectionId ?? '';
    const cached = fresh ? undefined : this.health.get(key);
    if (cached) return cached;
    const row = connectionId ? await cloudAccount(this.opts.db, connectionId) : undefined;
    const driver = row && connectionId ? await this.opts.cloud.driverFor(connectionId) : null;
    let value: CloudApiHealth;
    const checkedAt = new Date().toISOString();
    if (!row || !driver) {
      value = {
        healthy: false,
        configured: false,
        phoneNumber: null,
        qualityRating: null,
        webhookReady: false,
        message: cloudApiMsg.notConfigured,
        checkedAt,
      };
    } else {
      const base = { configured: true, webhookReady: row.appSecret !== null, checkedAt };
      try {
        const info = await driver.phoneInfo();
        value = {
          ...base,
          healthy: true,
          phoneNumber: info.display_phone_number ? formatPhone(info.display_phone_number) : null,
          qualityRating: info.quality_rating ?? null,
          displayName: info.verified_name || null,
          messagingLimit: parseMessagingLimit(info.whatsapp_business_manager_messaging_limit),
          message: row.appSecret ? null : cloudApiMsg.webhookNeedsSecret,
        };
      } catch (err) {
        const tokenInvalid = err instanceof DriverError && err.kind === 'auth';
        value = {
          ...base,
          healthy: false,
          phoneNumber: null,
          qualityRating: null,
          message: tokenInvalid ? cloudApiMsg.tokenInvalid : cloudApiMsg.graphUnreachable,
        };
      }
    }
    if (connectionId) this.health.set(key, value);
    return value;
  }

  private async primaryDriver(userId: string) {
    const entry = await this.primary(userId);
    return entry ? this.opts.cloud.driverFor(entry.id) : null;
  }

  async getProfile(userId: string): Promise<{ success: true; profile: BusinessProfile }> {
    const driver = await this.primaryDriver(userId);
    if (!driver) throw new AppError('CONFLICT', cloudApiMsg.notConfigured);
    try {
      const [info, profile] = await Promise.all([driver.phoneInfo(), driver.businessProfile()]);
      return {
        success: true,
        profile: {
          profilePicture: profile.profile_picture_url ?? null,
          name: info.verified_name ?? '',
          verified: info.code_verification_status === 'VERIFIED',
          phone: info.display_phone_number ? formatPhone(info.display_phone_number) : '',
          status: info.status ?? profile.about ?? '',
          qualityRating: info.quality_rating ?? null,
          messagingLimit: parseMessagingLimit(info.whatsapp_business_manager_messaging_limit),
        },
      };
    } catch (err) {
      this.opts.log.warn({ err, userId }, 'business profile fetch failed');
      throw new AppError('CONFLICT', cloudApiMsg.profileFailed);
    }
  }

  async listTemplates(userId: string) {
    const driver = await this.primaryDriver(userId);
    if (!driver) throw new AppError('CONFLICT', cloudApiMsg.notConfigured);
    try {
      return { templates: await driver.listTemplates() };
    } catch {
      throw new AppError('CONFLICT', cloudApiMsg.graphUnreachable);
    }
  }
}

function credentialsError(err: unknown): AppError {
  if (err instanceof DriverError && err.kind === 'transient' && err.providerCode === undefined) {
    return new AppError('CONFLICT', cloudApiMsg.graphUnreachable);
  }
  const detail = err instanceof DriverError || err instanceof GraphApiError ? ` (${err.message})` : '';
  // 409, not 400: the request is well formed; the Graph API refuses the credentials.
  return new AppError('CONFLICT', `${cloudApiMsg.invalidCredentials}${detail}`);
}

/** The settings form over the app's Cloud API connections and number directory. */
export function cloudApiSettingsOf(
  deps: Pick<AppDeps, 'config' | 'db' | 'cloudApi' | 'connections'>,
  log: FastifyBaseLogger,
): CloudApiSettings {
  return new CloudApiSettings({
    config: deps.config,
    db: deps.db,
    cloud: deps.cloudApi,
    directory: deps.connections.directory,
    log,
  });
}
