import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { connectionsMsg } from '../../../contract/connections';
import {
  type ConnectWhatsappInput,
  type ConnectWhatsappResponse,
  type SimulateInboundInput,
  type simulateRestrictionInput,
  type WhatsappChannelInfo,
  whatsappMsg,
} from '../../../contract/whatsapp-connection';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { MediaStore } from '../../media/store';
import { DriverError } from '../../whatsapp/driver';
import type { ConnectionManager } from '../../whatsapp/manager';
import type { SimulatedContent } from '../../whatsapp/simulator/simulator-driver';
import { getAccountSettings } from '../settings';

type SimulateRestrictionInput = z.output<typeof simulateRestrictionInput>;

/** Starts pairing the account's personal number: a QR code, or a pairing code for a phone number. */
export async function connectWhatsapp(
  connections: ConnectionManager,
  userId: string,
  input: ConnectWhatsappInput,
): Promise<ConnectWhatsappResponse> {
  try {
    const { pairingCode } = await connections.connect(userId, { phoneNumber: input?.phoneNumber });
    return {
      success: true,
      message: pairingCode ? whatsappMsg.pairingStarted : whatsappMsg.connectStarted,
      pairingCode: pairingCode ?? null,
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof DriverError) throw new AppError('CONFLICT', whatsappMsg.connectFailed);
    throw err;
  }
}

/** Logs the device out (SPEC §2, §4). */
export async function disconnectWhatsapp(connections: ConnectionManager, userId: string) {
  await connections.disconnect(userId);
  return { success: true, message: whatsappMsg.disconnected };
}

/**
 * Simulator only: the account's personal number a simulator route acts on — the one asked for (another
 * account's or an unknown one is a 404, as on the conversation routes), else the primary one.
 */
async function simulatedNumber(connections: ConnectionManager, userId: string, connectionId?: string) {
  if (connectionId) {
    const entry = await connections.directory.get(userId, connectionId);
    if (!entry) throw new AppError('NOT_FOUND', connectionsMsg.notFound);
    if (entry.kind !== 'personal') throw new AppError('CONFLICT', whatsappMsg.simulatorPersonalOnly);
    return entry;
  }
  const entry = await connections.directory.primary(userId, 'personal');
  if (!entry) throw new AppError('CONFLICT', whatsappMsg.notConnected);
  return entry;
}

/**
 * Simulator only: injects a message from a contact into one of the account's simulated numbers (on
 * the process that holds it, wherever the request landed).
 */
export async function simulateInbound(
  connections: ConnectionManager,
  store: MediaStore,
  userId: string,
  input: SimulateInboundInput,
) {
  const entry = await simulatedNumber(connections, userId, input.connectionId);
  const { media, location, contactCard, reaction, replyTo, unsupported } = input;
  const content: SimulatedContent = {
    ...(location ? { location } : {}),
    ...(contactCard ? { contactCard } : {}),
    ...(reaction ? { reaction } : {}),
    ...(replyTo ? { replyTo } : {}),
    ...(unsupported ? { unsupported } : {}),
  };
  if (media) {
    // The simulated phone's copy of the file, where the background fetch finds it (any process):
    // what crosses to the process holding the number is its key, never its bytes.
    const data = Buffer.from(media.dataBase64, 'base64');
    const key = `incoming/${randomUUID()}`;
    await store.put(key, [data], data.length);
    content.media = {
      kind: media.kind,
      mimeType: media.mimeType.toLowerCase(),
      ...(media.fileName ? { fileName: media.fileName } : {}),
      size: data.length,
      ...(media.durationSeconds !== undefined ? { durationSeconds: media.durationSeconds } : {}),
      ...(media.voice ? { voice: true } : {}),
      source: { via: 'stored', key },
    };
  }
  try {
    return {
      success: true as const,
      ...(await connections.simulateInboundOn(entry.id, input.from, input.text, content)),
    };
  } catch (err) {
    // Not injected (the number is not connected…): the phone's copy has no message to fetch it.
    if (content.media?.source.via === 'stored') await store.delete(content.media.source.key).catch(() => undefined);
    throw err;
  }
}

/** Simulator only: the number's next send fails with a WhatsApp restriction (a fault switch for tests and demos). */
export async function simulateRestriction(
  connections: ConnectionManager,
  userId: string,
  input: SimulateRestrictionInput,
) {
  const entry = await simulatedNumber(connections, userId, input?.connectionId);
  await connections.simulateRestrictionOn(entry.id, input?.code ?? '463');
  return { success: true as const, message: whatsappMsg.restrictionArmed };
}

/** Simulator only: what the account's simulated number sent, oldest first (for browser tests). */
export async function simulatorOutbox(connections: ConnectionManager, userId: string) {
  return { messages: await connections.simulatorOutbox(userId) };
}

/** Which channel sends for the account (its setting) and whether that channel is ready. */
export async function getWhatsappChannel(
  db: Db,
  connections: ConnectionManager,
  userId: string,
): Promise<WhatsappChannelInfo> {
  const [settings, cloud, personal] = await Promise.all([
    getAccountSettings(db, userId),
    connections.directory.primary(userId, 'cloud'),
    connections.personalStatus(userId),
  ]);
  const cloudState = await connections.cloud.readiness(cloud?.id);
  const personalReady = Boolean(personal?.isConnected && personal.phoneNumber);
  return {
    channel: settings.channel,
    ready: settings.channel === 'cloud' ? cloudState.ready : personalReady,
    personal: { connected: personalReady, phoneNumber: personal?.phoneNumber ?? null },
    cloud: { configured: cloudState.configured, phoneNumber: cloudState.phoneNumber },
  };
}
