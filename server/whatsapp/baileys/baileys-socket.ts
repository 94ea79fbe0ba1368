import type { AnyMessageContent, BaileysEventMap, GroupMetadata, WAMessage } from '@whiskeysockets/baileys';
import type { DatabaseAuthState } from './auth-state';

/** The part of a Baileys socket this driver uses (tests give a fake built on Baileys' own event emitter). */
export interface BaileysSocketLike {
  ev: {
    on<E extends keyof BaileysEventMap>(event: E, listener: (arg: BaileysEventMap[E]) => void): void;
    removeAllListeners(event: keyof BaileysEventMap): void;
  };
  user?: { id: string; lid?: string; name?: string };
  sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: { messageId?: string },
  ): Promise<WAMessage | undefined>;
  sendPresenceUpdate?(type: 'composing' | 'paused' | 'available', jid?: string): Promise<void>;
  onWhatsApp(...numbers: string[]): Promise<Array<{ jid: string; exists: boolean }> | undefined>;
  groupFetchAllParticipating(): Promise<Record<string, GroupMetadata>>;
  groupMetadata(jid: string): Promise<GroupMetadata>;
  requestPairingCode(phoneNumber: string): Promise<string>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): void | Promise<void>;
  signalRepository: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
}

export type MakeSocket = (auth: DatabaseAuthState['state']) => BaileysSocketLike;
