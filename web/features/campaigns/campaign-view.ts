import {
  type Campaign,
  type CampaignProgress,
  type CampaignWaitReason,
  campaignMsg,
  campaignWaitReasons,
} from '#contract/campaigns';
import type { MediaKind } from '#contract/message-content';
import { attempted, deliveryRate, deliveryTone, type MessageCounts } from '#contract/metrics';
import { formatDate } from '#web/lib/format';
import { finishPhrase } from './start-confirm';

/** Case-insensitive substring search on name or message (SPEC §5). */
export function filterCampaigns<T extends Pick<Campaign, 'name' | 'message'>>(
  campaigns: readonly T[],
  query: string,
): T[] {
  const q = query.trim().toLocaleLowerCase('pt-BR');
  if (!q) return [...campaigns];
  return campaigns.filter(
    (c) => c.name.toLocaleLowerCase('pt-BR').includes(q) || c.message.toLocaleLowerCase('pt-BR').includes(q),
  );
}

const MEDIA_ICONS: Record<MediaKind, string> = {
  image: '📷',
  document: '📎',
  audio: '🎵',
  video: '🎥',
  sticker: '💟',
};

/**
 * What the campaign sends besides its text, one short line each, in the order they go out: the
 * file ('📎 catalogo.pdf'), the location ('📍 Localização'), the contact card ('👤 Cartão de contato').
 */
export function campaignAttachments(c: Pick<Campaign, 'mediaUrl' | 'media' | 'location' | 'contactCard'>): string[] {
  const lines: string[] = [];
  if (c.media) lines.push(`${MEDIA_ICONS[c.media.kind]} ${c.media.fileName || 'Arquivo'}`);
  else if (c.mediaUrl) lines.push('📎 Arquivo');
  if (c.location) lines.push('📍 Localização');
  if (c.contactCard) lines.push('👤 Cartão de contato');
  return lines;
}

export const TARGET_TYPE_LABELS = {
  all: 'Todos os contatos e grupos',
  contacts: 'Contatos',
  groups: 'Grupos específicos',
} as const satisfies Record<Campaign['targetType'], string>;

/** Who the campaign goes to, in one line. */
export function audienceText(c: Pick<Campaign, 'targetType' | 'targetGroups' | 'targetTags'>): string {
  if (c.targetType === 'groups') {
    return c.targetGroups.length > 0 ? `Grupos: ${c.targetGroups.join(', ')}` : TARGET_TYPE_LABELS.groups;
  }
  if (c.targetType === 'contacts') {
    const tags = c.targetTags ?? [];
    if (tags.length === 0) return 'Contatos';
    return tags.length === 1 ? `Contatos com a tag ${tags[0]}` : `Contatos com as tags ${tags.join(', ')}`;
  }
  return TARGET_TYPE_LABELS.all;
}

/** A campaign's figures as every screen shows them (definitions in contract/metrics.ts). */
export interface CampaignFigures extends MessageCounts {
  /** sent + failed: what the delivery rate is over. */
  attempted: number;
  /** delivered ÷ (sent + failed). */
  deliveryRate: number;
  /** The delivery rate's SPEC §9 colour, neutral when nothing was tried. */
  tone: ReturnType<typeof deliveryTone>;
}

/**
 * The figures of a campaign's card (and of its line on the dashboard), from the API's counts of its
 * rows: sent, delivered and read as the list answers them, failed from its progress, and the
 * delivery rate by the contract's one definition — the same the header, the dashboard, Relatórios
 * and the PDF use.
 */
export function campaignFigures(
  c: Pick<Campaign, 'messagesSent' | 'messagesDelivered' | 'messagesRead' | 'progress'>,
): CampaignFigures {
  const counts: MessageCounts = {
    sent: c.messagesSent,
    delivered: c.messagesDelivered,
    read: c.messagesRead ?? c.progress?.read ?? 0,
    failed: c.progress?.failed ?? 0,
  };
  return { ...counts, attempted: attempted(counts), deliveryRate: deliveryRate(counts), tone: deliveryTone(counts) };
}

export type ProgressBucket = 'read' | 'delivered' | 'sent' | 'failed' | 'skipped' | 'pending';

export interface ProgressSegment {
  key: ProgressBucket;
  label: string;
  count: number;
  /** Share of the total, 0 to 100. */
  percent: number;
}

export interface ProgressSummary {
  total: number;
  /** Recipients the engine is done with: sent, delivered, read, failed or skipped. */
  processed: number;
  /** processed / total, 0 to 100 (whole numbers, 100 only when everything is processed). */
  percent: number;
  /** Bar segments in drawing order; each recipient counts once, under its current status. */
  segments: ProgressSegment[];
}

/**
 * The legend names where each recipient *is now*, one bucket each, so the names differ from the
 * card's counters, which count every message that reached a step ('Enviadas' = sent, delivered or
 * read): a legend 'Enviadas 0' beside a counter 'Enviadas 51' read as a contradiction.
 */
const SEGMENT_LABELS: Record<ProgressBucket, string> = {
  read: 'Lidas',
  delivered: 'Entregues, não lidas',
  sent: 'Aguardando entrega',
  failed: 'Falharam',
  skipped: 'Ignoradas',
  pending: 'Na fila',
};

/**
 * The progress bar's numbers. Each count is the number of recipient rows currently in that status
 * (a row is in exactly one), so the buckets add up to the total; 'Na fila' joins queued and sending.
 */
export function progressSummary(p: CampaignProgress): ProgressSummary {
  const counts: Record<ProgressBucket, number> = {
    read: p.read,
    delivered: p.delivered,
    sent: p.sent,
    failed: p.failed,
    skipped: p.skipped,
    pending: p.queued + p.sending,
  };
  const total = Math.max(p.total, 0);
  const processed = p.sent + p.delivered + p.read + p.failed + p.skipped;
  const share = (n: number) => (total > 0 ? Math.min(100, Math.max(0, (n / total) * 100)) : 0);
  // Floor so the bar says 100 % only when nothing is left.
  const percent = total > 0 ? Math.min(100, Math.floor((processed / total) * 100)) : 0;
  const order: ProgressBucket[] = ['read', 'delivered', 'sent', 'failed', 'skipped', 'pending'];
  return {
    total,
    processed,
    percent,
    segments: order.map((key) => ({
      key,
      label: SEGMENT_LABELS[key],
      count: counts[key],
      percent: share(counts[key]),
    })),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * When a running campaign should finish, in the send confirmation's words (`finishPhrase`) about the
 * server's one forecast (pace, daily limit, business hours): 'Término previsto em ~3 min',
 * 'Término previsto amanhã às 09:02'. Null without a valid time.
 */
export function expectedFinishText(value: string | null | undefined, now: number = Date.now()): string | null {
  if (!value) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  const phrase = finishPhrase(at, new Date(now));
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** Why an in-progress campaign is waiting, in pt-BR; null for no (or an unknown) reason. */
export function waitingText(reason: string | null | undefined): string | null {
  if (!reason || !(campaignWaitReasons as readonly string[]).includes(reason)) return null;
  return campaignMsg.waiting[reason as CampaignWaitReason];
}

/** 'Criada em 22/11/2026'. */
export function createdText(createdAt: string): string {
  const date = formatDate(createdAt);
  return date ? `Criada em ${date}` : '';
}

/** An ISO instant as the value of an <input type="datetime-local"> (browser's time zone). */
export function toDateTimeLocal(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The value of an <input type="datetime-local"> as an ISO instant; null when empty or invalid. */
export function fromDateTimeLocal(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** What the campaign form has besides its text, as the preview lists it. */
export function draftAttachments(form: {
  mediaUrl?: string | null;
  mediaFile?: { kind?: MediaKind; fileName?: string } | null;
  location?: { name?: string } | null;
  contactCard?: { name?: string } | null;
}): string[] {
  const lines: string[] = [];
  if (form.mediaUrl) {
    const icon = form.mediaFile?.kind ? MEDIA_ICONS[form.mediaFile.kind] : '📎';
    lines.push(`${icon} ${form.mediaFile?.fileName || 'Arquivo'}`);
  }
  if (form.location) lines.push(`📍 Localização${form.location.name?.trim() ? `: ${form.location.name.trim()}` : ''}`);
  if (form.contactCard) {
    lines.push(`👤 Cartão de contato${form.contactCard.name?.trim() ? `: ${form.contactCard.name.trim()}` : ''}`);
  }
  return lines;
}
