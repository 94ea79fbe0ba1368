import { z } from 'zod';

/**
 * Who is using the product (SPEC §3 'Online count', 'Active users'), from real requests: an account
 * is online when it made a request in the last 2 minutes, offline-recently when its last request is
 * older than that but within 24 hours. Administrators see the whole platform; any other account
 * sees only its own users — in this product one account is one user, so only itself.
 */
export const ONLINE_WINDOW_MS = 2 * 60_000;
export const RECENT_WINDOW_MS = 24 * 60 * 60_000;
/** The active-users list shows at most this many (newest first); the counts count them all. */
export const ACTIVE_USERS_MAX = 200;

export const presenceMsg = {
  online: 'Usuários Online',
  totalActive: 'Total Ativos',
  /** Under 'Total Ativos': what it counts. */
  totalActiveHint: 'ativos nas últimas 24 horas',
  /** '2 offline recentemente' under 'Usuários Online'. */
  offlineRecently: 'offline recentemente',
  tabOnline: 'Online',
  tabVerification: 'Verificação de números',
  tabActivity: 'Atividade',
  listTitle: 'Usuários ativos',
  listDescriptionAdmin: 'Contas com acesso nas últimas 24 horas: online nos últimos 2 minutos ou offline recentemente.',
  listDescriptionOwn: 'Sua conta: online quando usada nos últimos 2 minutos.',
  isOnline: 'Online',
  isOffline: 'Offline',
  empty: 'Nenhum usuário ativo nas últimas 24 horas',
  loadError: 'Não foi possível carregar os usuários online.',
  you: 'Você',
} as const;

/** `GET /api/users/online-count`. `totalActive` = online + offline recently (active in the last 24 h). */
export const onlineCountResponse = z.object({
  currentlyOnline: z.number().int(),
  totalActive: z.number().int(),
  offlineRecently: z.number().int(),
});
export type OnlineCount = z.infer<typeof onlineCountResponse>;

export const activeUserSchema = z.object({
  userId: z.string(),
  /** The account's name (administrators see whose presence it is). */
  name: z.string(),
  isOnline: z.boolean(),
  lastSeen: z.string(),
});
export type ActiveUser = z.infer<typeof activeUserSchema>;

/** `GET /api/users/active`: newest first. */
export const activeUsersResponse = z.object({ activeUsers: z.array(activeUserSchema) });
export type ActiveUsers = z.infer<typeof activeUsersResponse>;
