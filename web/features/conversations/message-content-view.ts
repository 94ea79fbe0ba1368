import type { ConversationMessage } from '#contract/conversations';
import { contentPreview, formatDuration, type MessageMedia } from '#contract/message-content';
import { paths } from '#web/lib/paths';

/** Shared with every screen that shows a file (web/lib/format.ts). */
export { formatFileSize } from '#web/lib/format';

export type DocumentIcon = 'spreadsheet' | 'archive' | 'image' | 'text';

const SPREADSHEET_TYPES = new Set([
  'text/csv',
  'application/csv',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
]);
const ARCHIVE_TYPES = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/vnd.rar',
  'application/x-rar-compressed',
  'application/x-7z-compressed',
  'application/gzip',
]);

/** Which icon a document's row shows, from its type (and its name's extension when the type is generic). */
export function documentIcon(media: Pick<MessageMedia, 'mimeType' | 'fileName'>): DocumentIcon {
  const type = media.mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  const ext = /\.([a-z0-9]+)$/i.exec(media.fileName)?.[1]?.toLowerCase() ?? '';
  if (SPREADSHEET_TYPES.has(type) || ['csv', 'xls', 'xlsx', 'ods'].includes(ext)) return 'spreadsheet';
  if (ARCHIVE_TYPES.has(type) || ['zip', 'rar', '7z', 'gz'].includes(ext)) return 'archive';
  if (type.startsWith('image/')) return 'image';
  return 'text';
}

/** What a media's element is called: the file's name, else its kind ('Foto', 'Figurinha', 'Vídeo'…). */
export function mediaLabel(media: Pick<MessageMedia, 'kind' | 'fileName' | 'voice'>): string {
  const name = media.fileName.trim();
  switch (media.kind) {
    case 'image':
      return name || 'Foto';
    case 'sticker':
      return 'Figurinha';
    case 'video':
      return name || 'Vídeo';
    case 'audio':
      return media.voice ? 'Mensagem de voz' : 'Áudio';
    case 'document':
      return name || 'Documento';
  }
}

/** An audio's line above its player: 'Mensagem de voz · 0:12', 'Áudio'. */
export function audioLabel(media: Pick<MessageMedia, 'voice' | 'durationSeconds'>): string {
  const label = media.voice ? 'Mensagem de voz' : 'Áudio';
  return media.durationSeconds ? `${label} · ${formatDuration(media.durationSeconds)}` : label;
}

/** Absent means ready (a file we sent, or a message from before the state existed). */
export function mediaState(media: Pick<MessageMedia, 'state'>): 'pending' | 'ready' | 'failed' {
  return media.state ?? 'ready';
}

type ContentFields = Pick<
  ConversationMessage,
  'text' | 'media' | 'location' | 'contactCard' | 'reaction' | 'unsupported'
>;

/**
 * The text a bubble shows under a file, location or contact card: its caption. Empty when the
 * message has none, or when the text only repeats what the card already shows (its list preview).
 */
export function captionText(m: ContentFields): string {
  const text = m.text?.trim() ?? '';
  if (!text) return '';
  if (!m.media && !m.location && !m.contactCard && !m.reaction) return m.text;
  const preview = contentPreview({
    media: m.media,
    location: m.location,
    contactCard: m.contactCard,
    reaction: m.reaction,
  });
  return text === preview ? '' : m.text;
}

/** The reaction's line: 'Reagiu com 👍', or 'Removeu a reação'. */
export function reactionText(reaction: { emoji: string }): string {
  return contentPreview({ reaction });
}

/**
 * The contacts page opening 'Novo Contato' with the card's number and name (`?novo=&nome=`), beside
 * its `?q=` search.
 */
export function saveContactHref(card: { name: string; phone: string }): string {
  const params = new URLSearchParams({ novo: card.phone });
  const name = card.name.trim();
  if (name) params.set('nome', name);
  return `${paths.contacts}?${params}`;
}
