import { mediaMsg } from '../../../contract/media';
import { formatPhone, phoneDigits } from '../../../contract/phone';
import type { WhatsappSession } from '../../../contract/whatsapp';
import type { FetchedImage } from '../../lib/outbound-fetch';
import {
  type Driver,
  DriverError,
  type GroupInfo,
  type GroupParticipant,
  type InboundMessage,
  type MessageButton,
  type NumberCheck,
  type OutgoingMedia,
  type OutgoingMessage,
  type Receipt,
} from '../driver';
import { DriverEmitter } from '../driver-emitter';
import { cloudButtonLayout, MenuMemory, renderNumberedMenu } from '../numbered-menu';
import { type GraphClient, toDriverError } from './graph-client';
import { contactsPayload, locationPayload, MediaIds, readFileParts, type SharedMediaIds } from './media-ids';

export interface CloudPhoneInfo {
  id?: string;
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
  code_verification_status?: string;
  name_status?: string;
  status?: string;
  /** The business portfolio's messaging limit (unique users per moving 24 h), e.g. 'TIER_2K'. */
  whatsapp_business_manager_messaging_limit?: unknown;
}

export const PHONE_FIELDS =
  'display_phone_number,verified_name,quality_rating,code_verification_status,name_status,status,whatsapp_business_manager_messaging_limit';

export type MessagingLimit = number | 'unlimited';

const TIER = /^TIER_(\d+)(K)?$/i;

/**
 * Meta's messaging limit as a number of unique users per 24 h, from whichever shape the Graph API
 * answers ('TIER_250', 'TIER_2K', 'TIER_UNLIMITED', 2000, -1, or an object carrying one of these);
 * null when it cannot be read.
 */
export function parseMessagingLimit(value: unknown): MessagingLimit | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value < 0 ? 'unlimited' : value > 0 ? value : null;
  if (typeof value === 'string') {
    if (/UNLIMITED/i.test(value)) return 'unlimited';
    const tier = TIER.exec(value.trim());
    if (tier) return Number(tier[1]) * (tier[2] ? 1000 : 1);
    const n = Number(value);
    return Number.isFinite(n) ? parseMessagingLimit(n) : null;
  }
  if (typeof value === 'object') {
    for (const v of Object.values(value as Record<string, unknown>)) {
      const found = parseMessagingLimit(v);
      if (found !== null) return found;
    }
  }
  return null;
}

/** How long a read messaging limit is trusted before asking the Graph API again. */
const LIMIT_TTL_MS = 10 * 60_000;

export interface CloudTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  /** The body text, with its {{1}}, {{2}}… placeholders. */
  body: string;
  /** How many body variables a send must fill. */
  variables: number;
}

interface GraphTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  components?: Array<{ type?: string; text?: string }>;
}

/** The highest {{n}} of a template body: how many parameters its sends carry. */
export function templateVariableCount(body: string): number {
  let max = 0;
  for (const m of body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/** The official WhatsApp Cloud API for one phone number. Inbound messages and statuses come from the webhook. */
export class CloudApiDriver extends DriverEmitter implements Driver {
  readonly kind = 'cloud' as const;
  private readonly menus = new MenuMemory();
  /** Set when the Graph API refuses the token (code 190): health turns false until reconfigured. */
  tokenInvalid = false;
  displayPhoneNumber: string | null;

  constructor(
    private readonly graph: GraphClient,
    readonly phoneNumberId: string,
    readonly businessAccountId: string | null,
    displayPhoneNumber: string | null,
    /** Downloads a linked image under the outbound-fetch rules (public addresses, 10 s, 5 MB). */
    private readonly fetchImage: (url: string) => Promise<FetchedImage>,
    /** Media ids every process shares (shared-media-ids.ts); without, this driver's memory alone. */
    sharedMediaIds?: SharedMediaIds,
  ) {
    super();
    this.displayPhoneNumber = displayPhoneNumber;
    this.mediaIds = new MediaIds(sharedMediaIds);
  }

  status(): WhatsappSession {
    const ok = !this.tokenInvalid;
    return {
      phoneNumber: ok && this.displayPhoneNumber ? formatPhone(this.displayPhoneNumber) : null,
      isConnected: ok,
      state: ok ? 'connected' : 'disconnected',
      qr: null,
    };
  }

  async connect(): Promise<undefined> {
    await this.phoneInfo();
    return undefined;
  }

  async disconnect(): Promise<void> {}

  private limitCache: { at: number; value: MessagingLimit | null } | undefined;

  /** Meta's messaging limit of the number's portfolio, read at most every 10 minutes; null when unknown. */
  async messagingLimit(): Promise<MessagingLimit | null> {
    if (this.limitCache && Date.now() - this.limitCache.at < LIMIT_TTL_MS) return this.limitCache.value;
    let value: MessagingLimit | null = null;
    try {
      value = parseMessagingLimit((await this.phoneInfo()).whatsapp_business_manager_messaging_limit);
    } catch {
      value = null;
    }
    this.limitCache = { at: Date.now(), value };
    return value;
  }

  /** The phone number's details (also the credentials check). */
  async phoneInfo(): Promise<CloudPhoneInfo> {
    const info = await this.call(() =>
      this.graph.request<CloudPhoneInfo>('GET', this.phoneNumberId, { query: { fields: PHONE_FIELDS } }),
    );
    if (info.display_phone_number) this.displayPhoneNumber = info.display_phone_number;
    return info;
  }

  async businessProfile(): Promise<{ about?: string; profile_picture_url?: string; description?: string }> {
    const res = await this.call(() =>
      this.graph.request<{ data?: Array<{ about?: string; profile_picture_url?: string; description?: string }> }>(
        'GET',
        `${this.phoneNumberId}/whatsapp_business_profile`,
        { query: { fields: 'about,description,profile_picture_url' } },
      ),
    );
    return res.data?.[0] ?? {};
  }

  async listTemplates(): Promise<CloudTemplate[]> {
    if (!this.businessAccountId) return [];
    const res = await this.call(() =>
      this.graph.request<{ data?: GraphTemplate[] }>('GET', `${this.businessAccountId}/message_templates`, {
        query: { fields: 'name,language,status,category,components', limit: '100' },
      }),
    );
    return (res.data ?? []).map((t) => {
      const body = t.components?.find((c) => c.type?.toUpperCase() === 'BODY')?.text ?? '';
      return {
        name: t.name,
        language: t.language,
        status: t.status,
        category: t.category,
        body,
        variables: templateVariableCount(body),
      };
    });
  }

  async send(to: string, message: OutgoingMessage): Promise<{ providerMessageId: string }> {
    const recipient = phoneDigits(to);
    const payload = await this.payloadFor(recipient, message);
    const res = await this.call(() =>
      this.graph.request<{ messages?: Array<{ id: string }> }>('POST', `${this.phoneNumberId}/messages`, {
        json: { messaging_product: 'whatsapp', recipient_type: 'individual', to: recipient, ...payload },
      }),
    );
    const id = res.messages?.[0]?.id;
    if (!id) throw new DriverError('transient', 'Graph API answered without a message id');
    return { providerMessageId: id };
  }

  private async payloadFor(to: string, message: OutgoingMessage): Promise<Record<string, unknown>> {
    switch (message.kind) {
      case 'text':
        return { type: 'text', text: { body: message.text, preview_url: /https?:\/\//.test(message.text) } };
      case 'image': {
        const id = await this.uploadMedia(message.image);
        return { type: 'image', image: { id, ...(message.caption ? { caption: message.caption } : {}) } };
      }
      case 'template':
        return {
          type: 'template',
          template: {
            name: message.name,
            language: { code: message.language },
            ...(message.components ? { components: message.components } : {}),
          },
        };
      case 'interactive': {
        const headerImage = message.imageUrl ? await this.uploadMedia({ url: message.imageUrl }) : undefined;
        return this.interactivePayload(to, message.text, message.buttons, headerImage);
      }
      case 'media': {
        const { media, caption } = message;
        const id = await this.mediaIdFor(media);
        const withCaption = caption && media.kind !== 'audio' && media.kind !== 'sticker' ? { caption } : {};
        const filename = media.kind === 'document' ? { filename: media.fileName } : {};
        return { type: media.kind, [media.kind]: { id, ...withCaption, ...filename } };
      }
      case 'location':
        return locationPayload(message.location);
      case 'contact':
        return contactsPayload(message.contactCard);
    }
  }

  /** Media ids of the files this number uploaded: one upload per file (media-ids.ts). */
  private readonly mediaIds: MediaIds;

  private mediaIdFor(media: OutgoingMedia): Promise<string> {
    return this.mediaIds.get(media, async () => {
      // A linked image is fetched here, under the outbound-fetch rules; links of other kinds are resolved before.
      if (!media.open && media.url && media.kind === 'image') return this.uploadMedia({ url: media.url });
      return this.postMedia(await readFileParts(media), media.mimeType, media.fileName);
    });
  }

  /**
   * Quick replies (up to 3) become real reply buttons, with any link or phone number written in the
   * text; a lone link becomes a CTA URL button; anything else is a numbered menu.
   */
  private interactivePayload(
    to: string,
    text: string,
    buttons: MessageButton[],
    headerImage?: string,
  ): Record<string, unknown> {
    const header = headerImage ? { header: { type: 'image', image: { id: headerImage } } } : {};
    const replies = buttons.filter((b) => b.type === 'quick_reply');
    const others = buttons.filter((b) => b.type !== 'quick_reply');
    const withLines = (items: MessageButton[]) =>
      items.length
        ? `${text}\n\n${items.map((b) => `${b.type === 'url' ? '🔗' : '📞'} ${b.text}: ${b.value}`).join('\n')}`
        : text;
    const layout = cloudButtonLayout(buttons);
    if (layout === 'reply') {
      return {
        type: 'interactive',
        interactive: {
          type: 'button',
          ...header,
          body: { text: withLines(others).slice(0, 1024) },
          action: { buttons: replies.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.text.slice(0, 20) } })) },
        },
      };
    }
    const links = buttons.filter((b) => b.type === 'url');
    if (layout === 'cta_url') {
      return {
        type: 'interactive',
        interactive: {
          type: 'cta_url',
          ...header,
          body: { text: withLines(buttons.filter((b) => b !== links[0])).slice(0, 1024) },
          action: {
            name: 'cta_url',
            parameters: { display_text: links[0].text.slice(0, 20), url: links[0].value },
          },
        },
      };
    }
    this.menus.remember(to, buttons);
    const menu = renderNumberedMenu(text, buttons);
    if (headerImage) return { type: 'image', image: { id: headerImage, caption: menu } };
    return { type: 'text', text: { body: menu, preview_url: false } };
  }

  /** Meta cannot fetch our private files: the bytes go up to the Graph API and the message carries the media id. */
  private async uploadMedia(image: { url?: string; data?: Buffer; mimeType?: string }): Promise<string> {
    let data = image.data;
    let mimeType = image.mimeType;
    if (!data && image.url) {
      const fetched = await this.fetchImage(image.url).catch(() => {
        throw new DriverError('permanent', mediaMsg.imageUnavailable);
      });
      data = fetched.data;
      mimeType = fetched.mimeType;
    }
    if (!data) throw new DriverError('permanent', 'Imagem vazia');
    mimeType ??= 'image/jpeg';
    return this.postMedia([new Uint8Array(data)], mimeType, `image.${mimeType.split('/')[1] ?? 'jpg'}`);
  }

  /** `POST /{phone-number-id}/media`: the bytes as a multipart file; answers the media id. */
  private async postMedia(parts: BlobPart[], mimeType: string, fileName: string): Promise<string> {
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', mimeType);
    form.set('file', new Blob(parts, { type: mimeType }), fileName);
    const res = await this.call(() =>
      this.graph.request<{ id?: string }>('POST', `${this.phoneNumberId}/media`, { form }),
    );
    if (!res.id) throw new DriverError('transient', 'Graph API answered without a media id');
    return res.id;
  }

  async checkNumbers(_numbers: string[]): Promise<NumberCheck[]> {
    throw new DriverError('permanent', 'A API oficial não oferece verificação de números.');
  }

  async listGroups(): Promise<GroupInfo[]> {
    return [];
  }

  async groupParticipants(_groupId: string): Promise<GroupParticipant[]> {
    throw new DriverError('permanent', 'Grupos não estão disponíveis na API oficial.');
  }

  /** Applies one webhook event (already deduplicated by the caller). */
  receive(event: { inbound?: InboundMessage; receipt?: Receipt }): void {
    if (event.inbound) {
      const answer = event.inbound.buttonId ? undefined : this.menus.answer(event.inbound.from, event.inbound.text);
      this.emit('inbound', answer ? { ...event.inbound, ...answer } : event.inbound);
    }
    if (event.receipt) this.emit('receipt', event.receipt);
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      const value = await fn();
      if (this.tokenInvalid) {
        this.tokenInvalid = false;
        this.emit('connection', this.status());
      }
      return value;
    } catch (err) {
      const e = toDriverError(err);
      if (e.kind === 'auth' && !this.tokenInvalid) {
        this.tokenInvalid = true;
        this.emit('connection', this.status());
      }
      throw e;
    }
  }
}
