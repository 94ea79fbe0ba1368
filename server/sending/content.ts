import type { MediaKind, MessageContactCard, MessageLocation } from '../../contract/message-content';
import { renderMessage, seededRandom, variableValues } from '../../contract/personalize';
import { formatPhone } from '../../contract/phone';
import { uploadIdOf } from '../../contract/uploads';
import { type FileOpener, withAccountFile } from '../whatsapp/account-file';
import type { OutgoingMessage } from '../whatsapp/driver';
import { type ImageLoader, withUploadedImage } from '../whatsapp/uploaded-image';

/** What a campaign sends, as the dispatcher reads it with each claimed row. */
export interface CampaignContent {
  campaignId: string;
  message: string;
  imageUrl: string | null;
  /** Any file sent with the message: `upload:<id>` or an image link (absent on older callers). */
  mediaUrl?: string | null;
  /** The account's file `mediaUrl` names, when it still has it. */
  mediaFile?: CampaignFile | null;
  templateName: string | null;
  templateLanguage: string | null;
  templateVariables: Array<{ field: string } | { text: string }>;
  /** Sent right after the message (absent on older callers). */
  location?: MessageLocation | null;
  /** Sent right after the message and the location. */
  contactCard?: MessageContactCard | null;
}

/** One of the account's files, as a campaign sends it (a `media_uploads` row). */
export interface CampaignFile {
  id: string;
  kind: MediaKind;
  mimeType: string;
  fileName: string;
  voice: boolean;
  durationSeconds: number | null;
}

/** WhatsApp shows no caption under these: the file goes alone. */
export function takesCaption(kind: MediaKind): boolean {
  return kind !== 'audio' && kind !== 'sticker';
}

export interface RecipientFields {
  recipient: string;
  kind: 'contact' | 'group';
  name: string;
  email: string | null;
}

/** The recipient's own text: variables filled in, spintax chosen per recipient (the same every time for one recipient). */
export function personalText(message: string, r: RecipientFields): string {
  const phone = r.kind === 'contact' ? formatPhone(r.recipient) : '';
  return renderMessage(message, { name: r.name, phone, email: r.email }, seededRandom(r.recipient));
}

/**
 * The message one recipient gets: a template on the Cloud API when the campaign names one, an
 * image with the text as caption when it has one, text otherwise. An uploaded image is read here,
 * unless the driver reads it itself (`byReference`: a number held by another process, which is
 * handed the upload's id, never its bytes).
 */
export async function buildMessage(
  c: CampaignContent,
  r: RecipientFields,
  ctx: {
    userId: string;
    cloud: boolean;
    loadImage?: ImageLoader;
    openFile?: FileOpener;
    text?: string;
    byReference?: boolean;
  },
): Promise<OutgoingMessage> {
  const text = ctx.text ?? personalText(c.message, r);
  if (ctx.cloud && c.templateName) {
    const values = variableValues({
      name: r.name,
      phone: r.kind === 'contact' ? formatPhone(r.recipient) : '',
      email: r.email,
    });
    const parameters = c.templateVariables.map((v) => ({
      type: 'text',
      text: 'field' in v ? (values[v.field as keyof typeof values] ?? '') || '-' : v.text,
    }));
    return {
      kind: 'template',
      name: c.templateName,
      language: c.templateLanguage || 'pt_BR',
      components: parameters.length ? [{ type: 'body', parameters }] : [],
    };
  }
  if (c.mediaUrl) {
    const file = c.mediaFile;
    if (file) {
      const message: OutgoingMessage = {
        kind: 'media',
        media: {
          kind: file.kind,
          mimeType: file.mimeType,
          fileName: file.fileName,
          file: file.id,
          ...(file.voice ? { voice: true } : {}),
          ...(file.durationSeconds != null ? { durationSeconds: file.durationSeconds } : {}),
        },
        ...(takesCaption(file.kind) && text ? { caption: text } : {}),
      };
      return ctx.byReference ? message : withAccountFile(message, ctx.userId, ctx.openFile);
    }
    // A file the account no longer has: the text alone, as a missing file is sent (account-file.ts).
    if (uploadIdOf(c.mediaUrl) !== null) return { kind: 'text', text };
    return { kind: 'image', image: { url: c.mediaUrl }, caption: text };
  }
  if (c.imageUrl) {
    const upload = uploadIdOf(c.imageUrl);
    if (upload !== null) {
      const message: OutgoingMessage = { kind: 'image', image: { upload }, caption: text };
      return ctx.byReference ? message : withUploadedImage(message, ctx.userId, ctx.loadImage);
    }
    return { kind: 'image', image: { url: c.imageUrl }, caption: text };
  }
  return { kind: 'text', text };
}

type BuildContext = Parameters<typeof buildMessage>[2];

/**
 * Everything one recipient gets, in order: the message (text, or a file with the text as its
 * caption), the text on its own after an audio or a sticker (which take no caption), then the
 * location, then the contact card. A campaign of only a location or a contact card sends no empty
 * text before it. A template goes alone: outside the conversation window the Cloud API takes
 * nothing else.
 */
export async function buildMessages(
  c: CampaignContent,
  r: RecipientFields,
  ctx: BuildContext,
): Promise<OutgoingMessage[]> {
  const text = ctx.text ?? personalText(c.message, r);
  const main = await buildMessage(c, r, { ...ctx, text });
  if (main.kind === 'template') return [main];
  const extras: OutgoingMessage[] = [];
  if (c.location) extras.push({ kind: 'location', location: c.location });
  if (c.contactCard) extras.push({ kind: 'contact', contactCard: c.contactCard });
  const list: OutgoingMessage[] = [];
  if (main.kind !== 'text' || text.trim() || !extras.length) list.push(main);
  if (main.kind === 'media' && !takesCaption(main.media.kind) && text.trim()) list.push({ kind: 'text', text });
  return [...list, ...extras];
}
