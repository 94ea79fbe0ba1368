import { MEDIA_MAX_BYTES, type MessageContactCard, type MessageLocation } from '../../../contract/message-content';
import { phoneDigits } from '../../../contract/phone';
import { DriverError, type OutgoingMedia } from '../driver';

/** Meta keeps an uploaded file 30 days: its media id is reused for a day less. */
export const MEDIA_ID_TTL_MS = 29 * 24 * 60 * 60_000;
/** At most this many media ids are remembered per number (the oldest go first). */
const MEDIA_IDS_MAX = 5_000;

export const fileUnavailable = 'Arquivo indisponível: não foi possível ler o arquivo a enviar.';

/**
 * Media ids one number got, kept where every process reads them (shared-media-ids.ts): what one
 * process uploaded, another sends by id. Either call may fail; the upload then simply happens.
 */
export interface SharedMediaIds {
  /** The media id uploaded for this file within MEDIA_ID_TTL_MS, else null. */
  get(fileKey: string): Promise<string | null>;
  set(fileKey: string, mediaId: string): Promise<void>;
}

/**
 * The media ids of the files one Cloud API number uploaded, by file (the account's file id, else
 * the bytes' SHA-256): a campaign sends its one file with one upload. The promise is kept, so
 * concurrent sends of a file share its upload; a failed upload is forgotten and tried again at the
 * next send. A file known by neither is uploaded at each send. With `shared`, an id another process
 * (or this one before a restart) got is used before uploading again.
 */
export class MediaIds {
  private readonly ids = new Map<string, { at: number; id: Promise<string> }>();

  constructor(private readonly shared?: SharedMediaIds) {}

  get(media: Pick<OutgoingMedia, 'file' | 'sha256'>, upload: () => Promise<string>): Promise<string> {
    const key = media.file !== undefined ? `file:${media.file}` : media.sha256 ? `sha256:${media.sha256}` : null;
    if (!key) return upload();
    const now = Date.now();
    const cached = this.ids.get(key);
    if (cached && now - cached.at < MEDIA_ID_TTL_MS) return cached.id;
    this.ids.delete(key);
    const { shared } = this;
    const id = shared
      ? (async () => {
          const known = await shared.get(key).catch(() => null);
          if (known) return known;
          const fresh = await upload();
          await shared.set(key, fresh).catch(() => undefined);
          return fresh;
        })()
      : upload();
    const entry = { at: now, id };
    this.ids.set(key, entry);
    entry.id.catch(() => {
      if (this.ids.get(key) === entry) this.ids.delete(key);
    });
    while (this.ids.size > MEDIA_IDS_MAX) {
      const oldest = this.ids.keys().next().value;
      if (oldest === undefined) break;
      this.ids.delete(oldest);
    }
    return entry.id;
  }
}

/**
 * A file's bytes from the media store, as the parts of the Blob to upload (no extra copy of a file
 * of up to 100 MB), held to Meta's limit for its kind. A file without `open` cannot be read here.
 */
export async function readFileParts(media: OutgoingMedia): Promise<BlobPart[]> {
  if (!media.open) throw new DriverError('permanent', fileUnavailable);
  const max = MEDIA_MAX_BYTES[media.kind];
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of await media.open()) {
      size += chunk.byteLength;
      if (size > max) throw new DriverError('permanent', `${fileUnavailable} (maior que o limite do WhatsApp)`);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof DriverError) throw err;
    throw new DriverError('transient', `${fileUnavailable} (${(err as Error).message})`, 30_000);
  }
  return chunks as BlobPart[];
}

/** Meta's location message. */
export function locationPayload({ latitude, longitude, name, address }: MessageLocation): Record<string, unknown> {
  return {
    type: 'location',
    location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) },
  };
}

/** Meta's contacts message, with one card: the name and, when known, the number as its WhatsApp id. */
export function contactsPayload({ name, phone }: MessageContactCard): Record<string, unknown> {
  const digits = phone ? phoneDigits(phone) : '';
  return {
    type: 'contacts',
    contacts: [
      {
        name: { formatted_name: name, first_name: name },
        ...(digits ? { phones: [{ phone: `+${digits}`, wa_id: digits, type: 'CELL' }] } : {}),
      },
    ],
  };
}
