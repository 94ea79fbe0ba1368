import {
  type ConnectWhatsappInput,
  type ConnectWhatsappResponse,
  type WhatsappChannelInfo,
  whatsappMsg,
} from '../../../contract/whatsapp-connection';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { DriverError } from '../../whatsapp/driver';
import type { ConnectionManager } from '../../whatsapp/manager';
import { getAccountSettings } from '../settings';

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
 * Simulator only: injects a message from a contact into the account's simulated connection (on the
 * process that holds it, wherever the request landed).
 */
export async function simulateInbound(connections: ConnectionManager, userId: string, from: string, text: string) {
  return { success: true as const, ...(await connections.simulateInbound(userId, from, text)) };
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
