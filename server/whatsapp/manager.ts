import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WhatsappSession } from '../../contract/whatsapp';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { campaignRecipients, whatsappConnections, whatsappInboundMessages } from '../db/schema';
import { getAccountSettings } from '../modules/settings/account-settings.service';
import type { Driver, DriverProvider, InboundMessage, Receipt } from './driver';
import type { ConnectionRegistry } from './registry';
import { DEFAULT_SIMULATOR_TIMINGS, SimulatorDriver, type SimulatorTimings } from './simulator/simulator-driver';

export type PersonalDriverKind = 'baileys' | 'simulator';

export interface PersonalDriverContext {
  userId: string;
  autoReconnect: boolean;
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
}

/** Builds the personal-number driver of an account. Baileys is imported only when used. */
export type PersonalDriverFactory = (kind: PersonalDriverKind, ctx: PersonalDriverContext) => Promise<Driver>;

/** A cloud driver for an account, or null when it has no Cloud API configured. */
export type CloudDriverSource = (userId: string) => Promise<Driver | null>;

export interface ConnectionManagerOptions {
  config: Config;
  db: Db;
  registry: ConnectionRegistry;
  log: FastifyBaseLogger;
  simulatorTimings?: SimulatorTimings;
  createPersonalDriver?: PersonalDriverFactory;
}

/** Statuses a receipt may move a recipient row from (never backwards: read stays read). */
const RECEIPT_FROM: Record<Receipt['status'], Array<(typeof campaignRecipients.$inferSelect)['status']>> = {
  sent: ['queued', 'sending'],
  delivered: ['queued', 'sending', 'sent'],
  read: ['queued', 'sending', 'sent', 'delivered'],
  failed: ['queued', 'sending', 'sent'],
};

/**
 * Owns every WhatsApp connection of this process (one driver per account and channel) and is the
 * app's DriverProvider. Drivers report their state to the in-memory registry the 2-second poll
 * reads; receipts update campaign recipients; inbound messages are recorded.
 */
export class ConnectionManager implements DriverProvider {
  private readonly personal = new Map<string, Driver>();
  private readonly starting = new Map<string, Promise<Driver>>();
  private cloudSource: CloudDriverSource = async () => null;
  private readonly inboundListeners = new Set<(userId: string, message: InboundMessage, driver: Driver) => void>();
  private closed = false;

  constructor(private readonly opts: ConnectionManagerOptions) {}

  get defaultKind(): PersonalDriverKind {
    return this.opts.config.WHATSAPP_DRIVER;
  }

  /** Lets the Cloud API module provide its drivers without this file importing it. */
  setCloudSource(source: CloudDriverSource): void {
    this.cloudSource = source;
  }

  /** Later features (the chatbot) listen to every inbound message of every driver here. */
  onInbound(listener: (userId: string, message: InboundMessage, driver: Driver) => void): () => void {
    this.inboundListeners.add(listener);
    return () => this.inboundListeners.delete(listener);
  }

  /** The driver that sends for the account: its chosen channel, when that one is ready. */
  async get(userId: string): Promise<Driver | null> {
    const settings = await getAccountSettings(this.opts.db, userId);
    if (settings.channel === 'cloud') return this.cloudSource(userId);
    const driver = this.personal.get(userId);
    return driver?.status().isConnected ? driver : null;
  }

  /** The personal-number driver of an account, connected or not. */
  personalDriver(userId: string): Driver | undefined {
    return this.personal.get(userId);
  }

  /** Starts pairing (QR, or a pairing code when a phone number is given); idempotent while connecting. */
  async connect(userId: string, opts: { phoneNumber?: string } = {}): Promise<{ pairingCode?: string }> {
    const driver = await this.ensureDriver(userId, this.defaultKind);
    await this.opts.db
      .insert(whatsappConnections)
      .values({ userId, driver: driver.kind === 'simulator' ? 'simulator' : 'baileys', active: true })
      .onConflictDoUpdate({
        target: whatsappConnections.userId,
        set: { active: true, driver: driver.kind === 'simulator' ? 'simulator' : 'baileys', updatedAt: new Date() },
      });
    return (await driver.connect(opts)) ?? {};
  }

  /** Logs the device out and forgets the connection. */
  async disconnect(userId: string): Promise<void> {
    const driver = this.personal.get(userId);
    await this.opts.db
      .update(whatsappConnections)
      .set({ active: false, phoneNumber: null, updatedAt: new Date() })
      .where(eq(whatsappConnections.userId, userId));
    if (driver) {
      this.personal.delete(userId);
      await driver.disconnect({ logout: true });
    }
    this.opts.registry.clear(userId);
  }

  /** Reconnects the connections that were active when the process last stopped. */
  async restore(): Promise<void> {
    const rows = await this.opts.db
      .select({ userId: whatsappConnections.userId, driver: whatsappConnections.driver })
      .from(whatsappConnections)
      .where(eq(whatsappConnections.active, true));
    for (const row of rows) {
      if (this.closed) return;
      try {
        const driver = await this.ensureDriver(row.userId, row.driver);
        await driver.connect();
      } catch (err) {
        this.opts.log.warn({ err, userId: row.userId }, 'could not restore a WhatsApp connection');
      }
    }
    if (rows.length) this.opts.log.info({ count: rows.length }, 'WhatsApp connections restored');
  }

  /** Closes every socket without logging out, so the next start reconnects without a QR code. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const drivers = [...this.personal.values()];
    this.personal.clear();
    await Promise.allSettled(drivers.map((d) => d.disconnect({ logout: false })));
  }

  private async ensureDriver(userId: string, kind: PersonalDriverKind): Promise<Driver> {
    const existing = this.personal.get(userId);
    if (existing) return existing;
    const pending = this.starting.get(userId);
    if (pending) return pending;
    const start = (async () => {
      const settings = await getAccountSettings(this.opts.db, userId);
      const ctx: PersonalDriverContext = {
        userId,
        autoReconnect: settings.autoReconnect,
        config: this.opts.config,
        db: this.opts.db,
        log: this.opts.log,
      };
      const driver = await (this.opts.createPersonalDriver ?? defaultPersonalDriverFactory(this.opts.simulatorTimings))(
        kind,
        ctx,
      );
      this.attach(userId, driver);
      this.personal.set(userId, driver);
      return driver;
    })();
    this.starting.set(userId, start);
    try {
      return await start;
    } finally {
      this.starting.delete(userId);
    }
  }

  /** Records a driver's receipts and inbound messages; the personal driver also reports its connection state. */
  attach(userId: string, driver: Driver, opts: { personal: boolean } = { personal: true }): void {
    if (opts.personal) driver.on('connection', (state) => this.onConnection(userId, driver, state));
    driver.on('receipt', (receipt) => void this.recordReceipt(userId, receipt));
    driver.on('inbound', (message) => void this.recordInbound(userId, driver, message));
  }

  private onConnection(userId: string, driver: Driver, state: WhatsappSession): void {
    if (this.personal.get(userId) !== driver && this.personal.has(userId)) return;
    if (state.state === 'disconnected') {
      // A driver only reports 'disconnected' when it gives up (logged out, or no auto-reconnect).
      this.opts.registry.clear(userId);
      if (this.personal.get(userId) === driver && !this.closed) {
        this.personal.delete(userId);
        void this.opts.db
          .update(whatsappConnections)
          .set({ active: false, phoneNumber: null, updatedAt: new Date() })
          .where(eq(whatsappConnections.userId, userId))
          .catch((err) => this.opts.log.error({ err }, 'could not record a WhatsApp disconnection'));
      }
      return;
    }
    this.opts.registry.set(userId, state);
    if (state.phoneNumber) {
      void this.opts.db
        .update(whatsappConnections)
        .set({ phoneNumber: state.phoneNumber, updatedAt: new Date() })
        .where(eq(whatsappConnections.userId, userId))
        .catch((err) => this.opts.log.error({ err }, 'could not record a WhatsApp number'));
    }
  }

  /** Moves a campaign recipient forward by its provider message id (never backwards). */
  async recordReceipt(userId: string, receipt: Receipt): Promise<void> {
    try {
      await this.opts.db
        .update(campaignRecipients)
        .set({
          status: receipt.status,
          updatedAt: new Date(),
          ...(receipt.status === 'failed' ? { error: receipt.error ?? 'Falha na entrega' } : {}),
        })
        .where(
          and(
            eq(campaignRecipients.userId, userId),
            eq(campaignRecipients.providerMessageId, receipt.providerMessageId),
            inArray(campaignRecipients.status, RECEIPT_FROM[receipt.status]),
          ),
        );
    } catch (err) {
      this.opts.log.error({ err }, 'could not record a WhatsApp receipt');
    }
  }

  /** Records an inbound message once (by provider id) and hands it to the listeners. */
  async recordInbound(userId: string, driver: Driver, message: InboundMessage): Promise<boolean> {
    try {
      const inserted = await this.opts.db
        .insert(whatsappInboundMessages)
        .values({
          userId,
          channel: driver.kind,
          fromPhone: message.from,
          text: message.text,
          buttonId: message.buttonId ?? null,
          providerMessageId: message.providerMessageId,
          receivedAt: message.timestamp,
        })
        .onConflictDoNothing()
        .returning({ id: whatsappInboundMessages.id });
      if (!inserted.length) return false;
    } catch (err) {
      this.opts.log.error({ err }, 'could not record an inbound WhatsApp message');
      return false;
    }
    for (const listener of this.inboundListeners) {
      try {
        listener(userId, message, driver);
      } catch (err) {
        this.opts.log.error({ err }, 'an inbound listener failed');
      }
    }
    return true;
  }
}

function defaultPersonalDriverFactory(timings = DEFAULT_SIMULATOR_TIMINGS): PersonalDriverFactory {
  return async (kind, ctx) => {
    if (kind === 'simulator') return new SimulatorDriver(ctx.userId, timings);
    // Loaded on first use: the simulator, the tests and the poll never pay for Baileys.
    const { createBaileysDriver } = await import('./baileys/baileys-driver');
    return createBaileysDriver(ctx);
  };
}
