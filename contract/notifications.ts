import { z } from 'zod';
import { formatNumber } from './format';
import { countLabel } from './plural';

/**
 * The header's notifications (the bell): real events of the account, stored per user, read in a
 * panel that marks them read. See docs/decisions/014-notifications-activity-and-presence.md.
 */
export const notificationKinds = [
  'campaign_completed',
  'campaign_failed',
  'campaign_paused',
  'whatsapp_disconnected',
  'whatsapp_reconnected',
  'number_stopped',
  'contacts_imported',
  'conversation_handoff',
  'account_pending',
  /** A member named in a conversation's internal note (`@Nome`): stored for that login alone. */
  'conversation_mention',
  /** A conversation given to a member (by a person, or in turn by its queue): stored for that login alone. */
  'conversation_assigned',
] as const;

/** Kinds addressed to one login of the account (stored under its own id), never read by the others. */
export const PERSONAL_NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'conversation_mention',
  'conversation_assigned',
];
export type NotificationKind = (typeof notificationKinds)[number];

/**
 * Which notification setting (SPEC §3, Configurações → Notificações) silences a kind. Kinds left out
 * always arrive: the answer to the user's own import, a contact waiting for a person, an account
 * waiting for an administrator's approval.
 */
export const notificationSettingOf: Partial<Record<NotificationKind, 'campaignUpdates' | 'systemAlerts'>> = {
  campaign_completed: 'campaignUpdates',
  campaign_failed: 'campaignUpdates',
  campaign_paused: 'campaignUpdates',
  whatsapp_disconnected: 'systemAlerts',
  whatsapp_reconnected: 'systemAlerts',
  number_stopped: 'systemAlerts',
};

/** How many notifications an account keeps (the newest); older ones are deleted as new ones arrive. */
export const NOTIFICATIONS_KEPT = 100;
/** The panel shows this many by default. */
export const NOTIFICATIONS_LIST_DEFAULT = 20;
export const NOTIFICATIONS_LIST_MAX = 100;
/** How often the bell asks for its count. */
export const NOTIFICATIONS_POLL_MS = 30_000;

const quoted = (name: string) => `“${name}”`;

/** pt-BR texts of the notifications, written when the event happens, and of the panel. */
export const notificationMsg = {
  panelTitle: 'Notificações',
  empty: 'Nenhuma notificação',
  emptyHint: 'Avisos de campanhas, importações, conexão do WhatsApp e atendimentos aparecem aqui.',
  markAllRead: 'Marcar todas como lidas',
  loadError: 'Não foi possível carregar as notificações.',
  markedRead: 'Notificações marcadas como lidas.',
  /** The bell's accessible name: 'Notificações (1 nova)', 'Notificações (3 novas)', 'Notificações'. */
  bellLabel: (unread: number) =>
    unread > 0 ? `Notificações (${countLabel(unread, 'nova', 'novas')})` : 'Notificações',
  /** The badge on the bell: '1' … '99', then '99+'. */
  badge: (unread: number) => (unread > 99 ? '99+' : formatNumber(unread)),

  campaignCompleted: {
    title: 'Campanha concluída',
    body: (name: string, sent: number, failed: number) =>
      `A campanha ${quoted(name)} terminou: ${countLabel(sent, 'mensagem enviada', 'mensagens enviadas')}` +
      (failed > 0 ? `, ${countLabel(failed, 'falha', 'falhas')}.` : '.'),
  },
  campaignFailed: {
    title: 'Campanha falhou',
    body: (name: string, failed: number) =>
      `Nenhuma mensagem da campanha ${quoted(name)} foi entregue ao WhatsApp (${countLabel(failed, 'falha', 'falhas')}). Veja o relatório para saber por quê.`,
  },
  campaignPaused: {
    title: 'Campanha pausada',
    body: (name: string, reason: string) => `Campanha ${quoted(name)}. ${reason}`,
  },
  whatsappDisconnected: {
    title: 'WhatsApp desconectado',
    body: 'A conexão do seu WhatsApp caiu. Reconecte para continuar enviando campanhas e respondendo contatos.',
  },
  numberStopped: {
    title: 'Número parou de enviar',
    body: (label: string, why: string) =>
      `O número ${quoted(label)} parou de enviar campanhas: ${why}. Os destinatários dele seguem pelos outros números escolhidos.`,
  },
  whatsappReconnected: {
    title: 'WhatsApp reconectado',
    body: 'Seu WhatsApp está conectado novamente. Os envios pendentes continuam.',
  },
  contactsImported: {
    title: 'Importação concluída',
  },
  handoff: {
    title: 'Atendimento humano solicitado',
    contact: (who: string) => `${who} pediu para falar com uma pessoa. O chatbot aguarda o seu atendimento.`,
    ai: (who: string) => `A IA não soube responder ${who}. A conversa aguarda um atendente.`,
  },
  assigned: {
    title: 'Conversa atribuída a você',
    body: (who: string, by: string | null) =>
      by ? `${by} passou a conversa com ${who} para você.` : `A conversa com ${who} chegou para você pela fila.`,
  },
  accountPending: {
    title: 'Nova conta aguardando aprovação',
    body: (name: string, email: string) => `${name} (${email}) criou uma conta e aguarda aprovação.`,
  },
} as const;

/** Where a notification leads, in the browser app (paths of web/app/paths.ts). */
export const notificationLinks = {
  campaign: (id: string) => `/campaigns?report=${encodeURIComponent(id)}`,
  whatsapp: '/dashboard#whatsapp-connection',
  /** A contact's conversation; `connectionId`: the one on that number (a conversation is per number). */
  conversation: (phoneDigits: string, connectionId?: string) =>
    `/conversations?phone=${encodeURIComponent(phoneDigits)}${connectionId ? `&number=${encodeURIComponent(connectionId)}` : ''}`,
  contacts: '/contacts',
  adminPending: '/admin/users',
} as const;

/** Only a path of this app is followed (never another site). */
export function isAppLink(link: string | null | undefined): link is string {
  return typeof link === 'string' && link.startsWith('/') && !link.startsWith('//') && !link.includes('\\');
}

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(notificationKinds),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_LIST_MAX).default(NOTIFICATIONS_LIST_DEFAULT),
});

/** `GET /api/notifications`: newest first, with how many of all the account's notifications are unread. */
export const notificationListResponse = z.object({
  notifications: z.array(notificationSchema),
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListResponse>;

/** `GET /api/notifications/unread-count`: the bell's poll. */
export const unreadCountResponse = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCountResponse>;

/** `POST /api/notifications/read`: these ids, or every notification when none are given (or no body). */
export const markReadInput = z
  .object({
    ids: z
      .array(z.uuid({ error: 'Identificador inválido.' }))
      .max(NOTIFICATIONS_LIST_MAX)
      .optional(),
  })
  .nullish();
export type MarkReadInput = NonNullable<z.input<typeof markReadInput>>;

export const markReadResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** How many changed from unread to read. */
  marked: z.number().int(),
  unread: z.number().int(),
});
export type MarkReadResponse = z.infer<typeof markReadResponse>;
