import { Readable } from 'node:stream';
import type { AnyMessageContent } from '@whiskeysockets/baileys';
import type { MessageContactCard } from '../../../contract/message-content';
import { phoneDigits } from '../../../contract/phone';
import { DriverError, type OutgoingMedia, type OutgoingMessage } from '../driver';

/** The message kinds built here: a file, a location, a contact card. */
type Outgoing = Extract<OutgoingMessage, { kind: 'media' | 'location' | 'contact' }>;

/** A vCard 3.0 text value: backslashes, commas, semicolons and line breaks escaped. */
const vcardText = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/[;,]/g, (c) => `\\${c}`);

/** The minimal vCard WhatsApp shows as a contact card: the name and, when known, the number with its WhatsApp id. */
export function contactVcard(card: MessageContactCard): string {
  const digits = card.phone ? phoneDigits(card.phone) : '';
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `FN:${vcardText(card.name)}`,
    ...(digits ? [`TEL;type=CELL;type=VOICE;waid=${digits}:+${digits}`] : []),
    'END:VCARD',
  ].join('\n');
}

/**
 * A file, a location or a contact card as Baileys sends it. A file's bytes are streamed from the
 * media store (Baileys encrypts them to a temporary file and uploads that), never a URL for Baileys
 * to fetch: a linked image is downloaded by `linkedImage` under the outbound-fetch rules, and links
 * of other kinds are resolved before they reach the driver.
 */
export async function outgoingContent(
  message: Outgoing,
  linkedImage: (url: string) => Promise<Buffer>,
): Promise<AnyMessageContent> {
  switch (message.kind) {
    case 'media':
      return mediaContent(message.media, message.caption, linkedImage);
    case 'location': {
      const { latitude, longitude, name, address } = message.location;
      return {
        location: {
          degreesLatitude: latitude,
          degreesLongitude: longitude,
          ...(name ? { name } : {}),
          ...(address ? { address } : {}),
        },
      };
    }
    case 'contact': {
      const card = message.contactCard;
      return {
        contacts: { displayName: card.name, contacts: [{ displayName: card.name, vcard: contactVcard(card) }] },
      };
    }
  }
}

async function mediaContent(
  media: OutgoingMedia,
  caption: string | undefined,
  linkedImage: (url: string) => Promise<Buffer>,
): Promise<AnyMessageContent> {
  let upload: Buffer | { stream: Readable };
  if (media.open) upload = { stream: Readable.from(await media.open()) };
  else if (media.url && media.kind === 'image') upload = await linkedImage(media.url);
  else throw new DriverError('permanent', 'Arquivo indisponível: não foi possível ler o arquivo a enviar.');
  const withCaption = caption ? { caption } : {};
  const mimetype = media.mimeType;
  switch (media.kind) {
    case 'image':
      return { image: upload, mimetype, ...withCaption };
    case 'video':
      return { video: upload, mimetype, ...withCaption };
    case 'document':
      return { document: upload, mimetype, fileName: media.fileName, ...withCaption };
    case 'audio': {
      // Only OGG/Opus plays as a voice note; the caller sends any text of a voice note on its own.
      const ptt = Boolean(media.voice) && /^audio\/ogg\b/i.test(mimetype);
      return {
        audio: upload,
        mimetype: ptt ? 'audio/ogg; codecs=opus' : mimetype,
        ptt,
        ...(media.durationSeconds ? { seconds: Math.round(media.durationSeconds) } : {}),
      };
    }
    case 'sticker':
      return { sticker: upload };
  }
}
