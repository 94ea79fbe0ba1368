import type { proto } from '@whiskeysockets/baileys';
import type { MediaKind } from '../../../contract/message-content';
import type { InboundMedia, InboundMessage } from '../driver';

/** What a received message carries, as the inbound message takes it (the sender and ids aside). */
export type InboundContent = Pick<
  InboundMessage,
  'text' | 'media' | 'location' | 'contactCard' | 'reaction' | 'replyTo' | 'unsupported'
>;

/** Envelopes WhatsApp puts around the real content (disappearing, view once, captioned document). */
const WRAPPERS = [
  'ephemeralMessage',
  'viewOnceMessage',
  'viewOnceMessageV2',
  'viewOnceMessageV2Extension',
  'documentWithCaptionMessage',
] as const;

/** Content of no interest to the conversation: key distribution, revokes, settings, history sync. */
const SIGNALLING = new Set(['protocolMessage', 'senderKeyDistributionMessage', 'messageContextInfo']);

const MEDIA: Record<string, MediaKind> = {
  imageMessage: 'image',
  documentMessage: 'document',
  audioMessage: 'audio',
  videoMessage: 'video',
  // A round video note: a video to the CDN and to the key derivation.
  ptvMessage: 'video',
  stickerMessage: 'sticker',
};

/** A few content names read better as the kind the contact sees. */
const UNSUPPORTED_ALIASES: Record<string, string> = { pollCreation: 'poll' };

const MAX_MIME = 100;
const MAX_FILE_NAME = 255;
const MAX_NAME = 255;
const MAX_ADDRESS = 500;
const MAX_EMOJI = 32;
/** Sender-controlled strings kept with the file's row until it is fetched: real ones are far shorter. */
const MAX_PATH = 2048;
const MAX_MEDIA_KEY_BYTES = 64;
const CDN_PREFIX = 'https://mmg.whatsapp.net/';

type Content = Record<string, unknown> & { contextInfo?: proto.IContextInfo | null; caption?: string | null };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bounded = (v: unknown, max: number): string | undefined => {
  const s = str(v)?.trim();
  return s ? s.slice(0, max) : undefined;
};

/** protobufjs gives 64-bit fields as numbers or Long objects. */
function toNumber(v: unknown): number | undefined {
  const n =
    typeof v === 'number'
      ? v
      : v && typeof v === 'object' && typeof (v as { toNumber?: unknown }).toNumber === 'function'
        ? (v as { toNumber(): number }).toNumber()
        : typeof v === 'string' && /^\d+$/.test(v)
          ? Number(v)
          : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function base64Key(v: unknown): string | undefined {
  const bytes = v instanceof Uint8Array ? v : typeof v === 'string' ? Buffer.from(v, 'base64') : undefined;
  if (!bytes?.length || bytes.length > MAX_MEDIA_KEY_BYTES) return undefined;
  return Buffer.from(bytes).toString('base64');
}

function unwrap(message: proto.IMessage): proto.IMessage {
  let m = message;
  // Bounded: a wrapper inside a wrapper is legitimate (a disappearing view-once), a chain of them is not.
  for (let depth = 0; depth < 5; depth++) {
    const inner = WRAPPERS.map((w) => m[w]?.message).find(Boolean);
    if (!inner) break;
    m = inner;
  }
  return m;
}

/** The fields set, in the proto's order (decoded messages own only the fields that arrived). */
const setKeys = (m: proto.IMessage) =>
  Object.keys(m).filter(
    (k) => (m as Record<string, unknown>)[k] !== null && (m as Record<string, unknown>)[k] !== undefined,
  );

function mediaOf(kind: MediaKind, c: Content, type: string): Pick<InboundContent, 'media' | 'unsupported'> {
  const directPath = str(c.directPath);
  const mediaKey = base64Key(c.mediaKey);
  // Without both the file cannot be fetched: show the kind rather than a bubble that never loads.
  if (!directPath || directPath.length > MAX_PATH || !mediaKey) return { unsupported: type };
  const url = str(c.url);
  const mimeType = str(c.mimetype)?.split(';')[0].trim().toLowerCase().slice(0, MAX_MIME) || 'application/octet-stream';
  const size = toNumber(c.fileLength);
  const seconds = kind === 'audio' || kind === 'video' ? toNumber(c.seconds) : undefined;
  const fileName = kind === 'document' ? bounded(c.fileName, MAX_FILE_NAME) : undefined;
  const media: InboundMedia = {
    kind,
    mimeType,
    ...(fileName ? { fileName } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(seconds !== undefined ? { durationSeconds: seconds } : {}),
    ...(kind === 'audio' && c.ptt === true ? { voice: true } : {}),
    source: {
      via: 'baileys',
      directPath,
      mediaKey,
      mediaType: kind,
      ...(url?.startsWith(CDN_PREFIX) && url.length <= MAX_PATH ? { url } : {}),
    },
  };
  return { media };
}

const inRange = (v: unknown, limit: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit;

/** The number a vCard's TEL line gives: WhatsApp's `waid=` digits, else the digits of its value. */
export function vcardPhone(vcard: string | null | undefined): string | null {
  const line = (vcard ?? '').split(/\r?\n/).find((l) => /^(item\d+\.)?TEL[;:]/i.test(l.trim()));
  if (!line) return null;
  const waid = /waid=(\d+)/i.exec(line)?.[1];
  const digits = waid ?? line.slice(line.indexOf(':') + 1).replace(/\D/g, '');
  // E.164 numbers are at most 15 digits.
  return digits && digits.length <= 15 ? digits : null;
}

function contactOf(c: proto.Message.IContactMessage | null | undefined): InboundContent['contactCard'] {
  const fn = /^FN[;:](.*)$/im.exec(c?.vcard ?? '')?.[1];
  return {
    name: bounded(c?.displayName, MAX_NAME) ?? bounded(fn?.slice(fn.indexOf(':') + 1), MAX_NAME) ?? '',
    phone: vcardPhone(c?.vcard),
  };
}

/**
 * What a received message carries, for the inbound message: its text or caption, a file (with
 * where to fetch it), a location, a contact card, a reaction, what it quotes. null: nothing for the
 * conversation (signalling, an empty message). A kind this server does not show arrives as
 * `unsupported`, never as an empty message.
 */
export function inboundContent(message: proto.IMessage | null | undefined): InboundContent | null {
  if (!message) return null;
  const m = unwrap(message);
  const type = setKeys(m).find((k) => !SIGNALLING.has(k));
  if (!type) return null;
  const c = (m as Record<string, unknown>)[type] as Content | string;
  const content = typeof c === 'object' ? c : undefined;
  const stanzaId = content?.contextInfo?.stanzaId;
  const replyTo = stanzaId ? { replyTo: stanzaId } : {};

  const text =
    m.conversation ??
    m.extendedTextMessage?.text ??
    m.buttonsResponseMessage?.selectedDisplayText ??
    m.templateButtonReplyMessage?.selectedDisplayText;
  if (typeof text === 'string') return text ? { text, ...replyTo } : null;

  const kind = MEDIA[type];
  if (kind && content) return { text: str(content.caption) ?? '', ...mediaOf(kind, content, kind), ...replyTo };

  if (m.locationMessage || m.liveLocationMessage) {
    const loc = m.locationMessage ?? m.liveLocationMessage!;
    const { degreesLatitude: latitude, degreesLongitude: longitude } = loc;
    const comment = str(m.locationMessage?.comment) ?? str(m.liveLocationMessage?.caption) ?? '';
    if (!inRange(latitude, 90) || !inRange(longitude, 180))
      return { text: comment, unsupported: 'location', ...replyTo };
    const name = bounded(m.locationMessage?.name, MAX_NAME);
    const address = bounded(m.locationMessage?.address, MAX_ADDRESS);
    return {
      text: comment,
      location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) },
      ...replyTo,
    };
  }

  if (m.contactMessage) return { text: '', contactCard: contactOf(m.contactMessage), ...replyTo };
  if (m.contactsArrayMessage) {
    const first = m.contactsArrayMessage.contacts?.[0];
    return first ? { text: '', contactCard: contactOf(first), ...replyTo } : { text: '', unsupported: 'contactsArray' };
  }

  if (m.reactionMessage) {
    const target = m.reactionMessage.key?.id;
    // A reaction to no message cannot be shown anywhere.
    if (!target) return null;
    return {
      text: '',
      reaction: { emoji: str(m.reactionMessage.text)?.slice(0, MAX_EMOJI) ?? '', providerMessageId: target },
    };
  }

  const name = type.replace(/Message(V\d+)?(Extension)?$/, '') || type;
  return { text: '', unsupported: UNSUPPORTED_ALIASES[name] ?? name, ...replyTo };
}
