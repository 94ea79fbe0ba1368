import { z } from 'zod';

/**
 * The account's event log (Verificação → Atividade): what was done, by whom, when. Newest first,
 * paged; administrators may read every account's. See docs/decisions/014-notifications-activity-and-presence.md.
 */
export const activityKinds = [
  'login',
  'campaign_created',
  'campaign_started',
  'campaign_paused',
  'campaign_resumed',
  'campaign_cancelled',
  'campaign_finished',
  'campaign_failed',
  'contacts_imported',
  'contacts_exported',
  'report_exported',
  'settings_changed',
  'bot_changed',
  'whatsapp_connected',
  'whatsapp_disconnected',
  'team_changed',
] as const;
export type ActivityKind = (typeof activityKinds)[number];

/** How each event reads in the list (pt-BR). */
export const activityLabels: Record<ActivityKind, string> = {
  login: 'Entrou no sistema',
  campaign_created: 'Campanha criada',
  campaign_started: 'Campanha iniciada',
  campaign_paused: 'Campanha pausada',
  campaign_resumed: 'Campanha retomada',
  campaign_cancelled: 'Campanha cancelada',
  campaign_finished: 'Campanha concluída',
  campaign_failed: 'Campanha falhou',
  contacts_imported: 'Contatos importados',
  contacts_exported: 'Contatos exportados',
  report_exported: 'Relatório exportado',
  settings_changed: 'Configurações alteradas',
  bot_changed: 'Chatbot alterado',
  whatsapp_connected: 'WhatsApp conectado',
  whatsapp_disconnected: 'WhatsApp desconectado',
  team_changed: 'Equipe alterada',
};

/** The part of the settings an event changed (its detail). */
export const settingsSections = {
  profile: 'Perfil',
  notifications: 'Notificações',
  whatsapp: 'WhatsApp',
  password: 'Senha alterada',
  passwordReset: 'Senha redefinida pelo link enviado por email',
  twoFactorOn: 'Verificação em duas etapas ativada',
  twoFactorOff: 'Verificação em duas etapas desativada',
  twoFactorRequired: 'Verificação em duas etapas exigida da equipe',
  twoFactorOptional: 'Verificação em duas etapas deixou de ser exigida',
} as const;

export const activityMsg = {
  title: 'Atividade',
  description:
    'Entradas, campanhas, importações, exportações, configurações e conexão do WhatsApp, das mais recentes às mais antigas.',
  empty: 'Nenhuma atividade registrada',
  emptyHint: 'O que for feito nesta conta (entrar, criar campanhas, importar contatos…) aparece aqui.',
  loadError: 'Não foi possível carregar a atividade.',
  system: 'Sistema',
  allAccounts: 'Todas as contas',
  previous: 'Anterior',
  next: 'Próxima',
  /** 'Página 2 de 5' */
  pageOf: (page: number, pages: number) => `Página ${page} de ${pages}`,
  lostConnection: 'A conexão caiu',
  disconnectedByUser: 'Desconectado pelo usuário',
} as const;

export const ACTIVITY_PAGE_DEFAULT = 20;
export const ACTIVITY_PAGE_MAX = 100;

export const activityQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_PAGE_MAX).default(ACTIVITY_PAGE_DEFAULT),
  /** Administrators only: one account's log (without it, every account's). Ignored for everyone else. */
  userId: z.uuid({ error: 'Identificador inválido.' }).optional(),
});
export type ActivityQuery = z.infer<typeof activityQuery>;

export const activityEventSchema = z.object({
  id: z.string(),
  kind: z.enum(activityKinds),
  detail: z.string(),
  createdAt: z.string(),
  /** The account the event belongs to. */
  userId: z.string(),
  userName: z.string(),
  /** Who did it: null when the system did (a campaign finishing, a connection lost). */
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
});
export type ActivityEvent = z.infer<typeof activityEventSchema>;

export const activityPage = z.object({
  events: z.array(activityEventSchema),
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  /** Whose log this is: one account, or every account (administrators without a userId). */
  scope: z.enum(['account', 'all']),
});
export type ActivityPage = z.infer<typeof activityPage>;
