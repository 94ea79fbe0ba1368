import { type SQL, sql } from 'drizzle-orm';
import type { ConversationMessage } from '../../../contract/conversations';
import type { MediaKind, MediaState } from '../../../contract/message-content';
import { uploadUrl } from '../../../contract/uploads';
import { accountSql } from '../../db/account-scope';

/** What a conversation message carries besides its text, as the thread's query reads it (alias `m`). */
export interface ContentColumns {
  location: ConversationMessage['location'];
  contact_card: ConversationMessage['contactCard'];
  reaction: { emoji: string; providerMessageId: string } | null;
  reply_to: string | null;
  unsupported: string | null;
  file_id: string | null;
  file_kind: MediaKind | null;
  file_mime: string | null;
  file_name: string | null;
  file_size: number | null;
  file_duration: number | null;
  file_voice: boolean | null;
  file_state: MediaState | null;
  quoted_id: string | null;
  quoted_text: string | null;
  quoted_kind: string | null;
}

export const contentColumns = sql`m.location, m.contact_card, m.reaction, m.reply_to, m.unsupported,
  f.id as file_id, f.kind as file_kind, f.mime_type as file_mime, f.file_name as file_name, f.size as file_size,
  f.duration_seconds as file_duration, f.voice as file_voice, f.state as file_state,
  q.id as quoted_id, q.text as quoted_text, q.kind as quoted_kind`;

/**
 * The message's file, and the message it quotes or reacts to (by provider id, in the same
 * conversation), through the provider-id index: one probe per message shown.
 */
export function contentJoins(userId: string): SQL {
  return sql`left join media_uploads f on f.id = m.media_id and ${accountSql(userId, 'f.user_id')}
    left join lateral (
      select c.id, c.text, (select k.kind from media_uploads k where k.id = c.media_id) as kind
      from conversation_messages c
      where c.provider_message_id = coalesce(m.reply_to, m.reaction->>'providerMessageId')
        and ${accountSql(userId, 'c.user_id')} and c.phone = m.phone
      limit 1
    ) q on m.reply_to is not null or m.reaction is not null`;
}

const QUOTED_KIND: Record<string, string> = {
  image: '📷 Foto',
  document: '📎 Documento',
  audio: '🎵 Áudio',
  video: '🎥 Vídeo',
  sticker: '💟 Figurinha',
};

/** The additive fields of a message from its content columns (absent when it has none). */
export function messageContent(m: ContentColumns): Partial<ConversationMessage> {
  return {
    ...(m.file_id && m.file_kind
      ? {
          media: {
            kind: m.file_kind,
            mimeType: m.file_mime ?? 'application/octet-stream',
            fileName: m.file_name ?? '',
            size: Number(m.file_size ?? 0),
            url: uploadUrl(m.file_id),
            ...(m.file_duration ? { durationSeconds: Number(m.file_duration) } : {}),
            ...(m.file_voice ? { voice: true } : {}),
            state: m.file_state ?? 'ready',
          },
        }
      : {}),
    ...(m.location ? { location: m.location } : {}),
    ...(m.contact_card ? { contactCard: m.contact_card } : {}),
    ...(m.reaction ? { reaction: { emoji: m.reaction.emoji, messageId: m.quoted_id } } : {}),
    ...(m.reply_to
      ? {
          replyTo: {
            messageId: m.quoted_id,
            preview: (m.quoted_text || QUOTED_KIND[m.quoted_kind ?? ''] || 'Mensagem').slice(0, 200),
          },
        }
      : {}),
    ...(m.unsupported ? { unsupported: m.unsupported } : {}),
  };
}
