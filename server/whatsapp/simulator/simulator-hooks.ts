import { msg } from '../../../contract/messages';
import { type SimulatedSend, whatsappMsg } from '../../../contract/whatsapp-connection';
import { AppError } from '../../errors';
import type { ConnectionDirectory } from '../connection-directory';
import type { Driver } from '../driver';
import { type SimulatedContent, type SimulatedRestriction, SimulatorDriver } from './simulator-driver';

/** Where a simulated number runs: this process's driver, or the process holding it. */
export interface SimulatorHost {
  directory: ConnectionDirectory;
  /** The driver of a number this process runs. */
  local(connectionId: string): Driver | undefined;
  /** The other live process holding the number, or null (this one, nobody, or alone). */
  holderElsewhere(connectionId: string): Promise<string | null>;
  command(holder: string, connectionId: string, op: string, args: unknown[]): Promise<unknown>;
}

/**
 * The simulator's test hooks (development and tests only): a message "arriving" on a simulated
 * number, a restriction on its next send, and what it sent, wherever the number is held.
 */
export class SimulatorHooks {
  constructor(private readonly host: SimulatorHost) {}

  /** A message "arriving" on one simulated number, wherever it is held. */
  async inboundOn(
    connectionId: string,
    from: string,
    text: string,
    content?: SimulatedContent,
  ): Promise<{ providerMessageId: string }> {
    const driver = this.host.local(connectionId);
    if (!driver) {
      const holder = await this.host.holderElsewhere(connectionId);
      if (holder)
        return (await this.host.command(holder, connectionId, 'inject', [from, text, content ?? null])) as {
          providerMessageId: string;
        };
    }
    if (!driver?.status().isConnected) throw new AppError('CONFLICT', whatsappMsg.notConnected);
    if (!(driver instanceof SimulatorDriver)) throw new AppError('NOT_FOUND', msg.generic.notFound);
    return driver.injectInbound(from, text, content);
  }

  /** The next send of one simulated number fails with a WhatsApp restriction, wherever it is held. */
  async restrictionOn(connectionId: string, code: SimulatedRestriction): Promise<void> {
    const driver = this.host.local(connectionId);
    if (!driver) {
      const holder = await this.host.holderElsewhere(connectionId);
      if (holder) {
        await this.host.command(holder, connectionId, 'restrict', [code]);
        return;
      }
    }
    if (!driver?.status().isConnected) throw new AppError('CONFLICT', whatsappMsg.notConnected);
    if (!(driver instanceof SimulatorDriver)) throw new AppError('NOT_FOUND', msg.generic.notFound);
    driver.restrictNextSend(code);
  }

  /** What the account's simulated numbers sent, oldest first, wherever each is held. */
  async outbox(userId: string): Promise<SimulatedSend[]> {
    const all: SimulatedSend[] = [];
    for (const entry of await this.host.directory.list(userId)) {
      if (entry.kind === 'personal') all.push(...(await this.outboxOf(entry.id)));
    }
    return all.sort((a, b) => a.at.localeCompare(b.at));
  }

  /** What one simulated number sent. */
  async outboxOf(connectionId: string): Promise<SimulatedSend[]> {
    const driver = this.host.local(connectionId);
    if (!driver) {
      const holder = await this.host.holderElsewhere(connectionId);
      if (holder) return (await this.host.command(holder, connectionId, 'outbox', [])) as SimulatedSend[];
    }
    if (!(driver instanceof SimulatorDriver)) return [];
    // What was sent, never its bytes (this answer may cross the bus): an image's size stands for them.
    return driver.outbox.map(({ to, at, providerMessageId, message, read }) => ({
      to,
      at: at.toISOString(),
      providerMessageId,
      kind: message.kind,
      ...(message.kind === 'image' && message.image.data ? { imageBytes: message.image.data.length } : {}),
      ...(message.kind === 'media'
        ? {
            mediaKind: message.media.kind,
            fileName: message.media.fileName,
            mimeType: message.media.mimeType,
            voice: Boolean(message.media.voice),
            ...(read ? { mediaBytes: read.bytes, sha256: read.sha256 } : {}),
            ...(message.caption ? { caption: message.caption } : {}),
          }
        : {}),
      ...(message.kind === 'location' ? { location: { ...message.location } } : {}),
      ...(message.kind === 'contact'
        ? { contactCard: { name: message.contactCard.name, phone: message.contactCard.phone } }
        : {}),
    }));
  }
}
