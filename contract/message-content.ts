import './zod-locale';
import { z } from 'zod';

/**
 * What a WhatsApp message can carry besides text: a file of one of these kinds, a location, a
 * contact card, a reaction to another message. Shared by the conversations' API and its page.
 */
export const MEDIA_KINDS = ['image', 'document', 'audio', 'video', 'sticker'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Meta's limits per kind (the personal number is held to the same): what the server keeps at most. */
export const MEDIA_MAX_BYTES: Record<MediaKind, number> = {
  image: 5 * 1024 * 1024,
  document: 100 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  video: 16 * 1024 * 1024,
  sticker: 500 * 1024,
};

/** Whether a received file is in the account's store yet: it is fetched in the background. */
export const MEDIA_STATES = ['pending', 'ready', 'failed'] as const;
export type MediaState = (typeof MEDIA_STATES)[number];

export const messageMediaSchema = z.object({
  kind: z.enum(MEDIA_KINDS),
  mimeType: z.string(),
  fileName: z.string(),
  /** Bytes; 0 while a received file is still being fetched and its size is not known. */
  size: z.number().int(),
  /** Where the account (and only it) reads the bytes: `/api/uploads/<id>`. */
  url: z.string(),
  durationSeconds: z.number().int().optional(),
  /** A voice note (recorded in WhatsApp, played as one), not an audio file. */
  voice: z.boolean().optional(),
  /** Ours: a received file is `pending` until fetched from WhatsApp, `failed` when it could not be. */
  state: z.enum(MEDIA_STATES).optional(),
});
export type MessageMedia = z.infer<typeof messageMediaSchema>;

export const messageLocationSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  name: z.string().optional(),
  address: z.string().optional(),
});
export type MessageLocation = z.infer<typeof messageLocationSchema>;

export const messageContactCardSchema = z.object({
  name: z.string(),
  /** E.164 digits, or null when the card carries no number. */
  phone: z.string().nullable(),
});
export type MessageContactCard = z.infer<typeof messageContactCardSchema>;

export const messageReactionSchema = z.object({
  /** Empty: the contact took a reaction back. */
  emoji: z.string(),
  /** The message reacted to, when it is one of the conversation's. */
  messageId: z.string().nullable(),
});

export const messageReplyToSchema = z.object({
  messageId: z.string().nullable(),
  /** The quoted message's text or preview, for the bubble's header. */
  preview: z.string(),
});

export const messageContentMsg = {
  unsupported: (type: string) => `Mensagem de tipo não suportado: ${type}`,
  pending: 'O arquivo ainda está sendo baixado do WhatsApp. Tente de novo em alguns segundos.',
  failed: 'Não foi possível baixar este arquivo do WhatsApp.',
} as const;

/** '0:12', '1:05:09'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

const KIND_LABELS: Record<MediaKind, { icon: string; label: string }> = {
  image: { icon: '📷', label: 'Foto' },
  document: { icon: '📎', label: 'Documento' },
  audio: { icon: '🎵', label: 'Áudio' },
  video: { icon: '🎥', label: 'Vídeo' },
  sticker: { icon: '💟', label: 'Figurinha' },
};

/** What a message with no text of its own shows in a list: '📎 catalogo.pdf', '🎤 Áudio 0:12', '📍 Loja'. */
export function contentPreview(content: {
  text?: string;
  media?: { kind: MediaKind; fileName?: string; durationSeconds?: number; voice?: boolean } | null;
  location?: { name?: string; address?: string } | null;
  contactCard?: { name: string } | null;
  reaction?: { emoji: string } | null;
  unsupported?: string | null;
}): string {
  const text = content.text?.trim() ?? '';
  const { media } = content;
  if (media) {
    const { icon, label } = KIND_LABELS[media.kind];
    if (media.kind === 'audio') {
      const time = media.durationSeconds ? ` ${formatDuration(media.durationSeconds)}` : '';
      return `${media.voice ? '🎤' : icon} Áudio${time}${text ? ` ${text}` : ''}`;
    }
    if (media.kind === 'document') return `${icon} ${text || media.fileName || label}`;
    return `${icon} ${text || label}`;
  }
  if (content.location) return `📍 ${content.location.name || content.location.address || 'Localização'}`;
  if (content.contactCard) return `👤 ${content.contactCard.name || 'Contato'}`;
  if (content.reaction) return content.reaction.emoji ? `Reagiu com ${content.reaction.emoji}` : 'Removeu a reação';
  if (text) return text;
  if (content.unsupported) return messageContentMsg.unsupported(content.unsupported);
  return text;
}

/** A map of the point, for a location's link (no key, no embed: the browser opens it). */
export function mapLink(location: { latitude: number; longitude: number }): string {
  return `https://www.google.com/maps/search/?api=1&query=${location.latitude},${location.longitude}`;
}

export const LOCATION_NAME_MAX = 200;
export const LOCATION_ADDRESS_MAX = 500;
export const CONTACT_CARD_NAME_MAX = 120;

export const sendContentMsg = {
  latitudeInvalid: 'Latitude inválida: use um número entre -90 e 90 (por exemplo -23.5505).',
  longitudeInvalid: 'Longitude inválida: use um número entre -180 e 180 (por exemplo -46.6333).',
  locationNameTooLong: `O nome do local deve ter no máximo ${LOCATION_NAME_MAX} caracteres.`,
  locationAddressTooLong: `O endereço deve ter no máximo ${LOCATION_ADDRESS_MAX} caracteres.`,
  contactNameRequired: 'Informe o nome do contato a enviar.',
  contactNameTooLong: `O nome do contato deve ter no máximo ${CONTACT_CARD_NAME_MAX} caracteres.`,
  contactPhoneInvalid: 'Telefone do contato inválido. Informe DDD e número, por exemplo (21) 99876-5432.',
} as const;

/** A location a campaign or a bot rule sends: `{ latitude, longitude, name?, address? }`. */
export const locationInput = z.object({
  latitude: z.coerce
    .number({ error: sendContentMsg.latitudeInvalid })
    .min(-90, sendContentMsg.latitudeInvalid)
    .max(90, sendContentMsg.latitudeInvalid),
  longitude: z.coerce
    .number({ error: sendContentMsg.longitudeInvalid })
    .min(-180, sendContentMsg.longitudeInvalid)
    .max(180, sendContentMsg.longitudeInvalid),
  name: z.string().trim().max(LOCATION_NAME_MAX, sendContentMsg.locationNameTooLong).optional(),
  address: z.string().trim().max(LOCATION_ADDRESS_MAX, sendContentMsg.locationAddressTooLong).optional(),
});
export type LocationInput = z.output<typeof locationInput>;

/** A contact card a campaign or a bot rule sends: `{ name, phone }`; the phone is stored as E.164 digits. */
export const contactCardInput = z.object({
  name: z
    .string({ error: sendContentMsg.contactNameRequired })
    .trim()
    .min(1, sendContentMsg.contactNameRequired)
    .max(CONTACT_CARD_NAME_MAX, sendContentMsg.contactNameTooLong),
  phone: z
    .string({ error: sendContentMsg.contactPhoneInvalid })
    .transform((v) => v.replace(/\D/g, ''))
    .refine((d) => d.length >= 10 && d.length <= 15, sendContentMsg.contactPhoneInvalid),
});
export type ContactCardInput = z.output<typeof contactCardInput>;
