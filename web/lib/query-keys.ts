import type { Period } from '#contract/metrics';

/*
 * Every TanStack Query key of the browser app, in one place. A key starts with the API path it reads,
 * so the default query function (query-client.ts) fetches it with no `queryFn`; what follows are its
 * parameters. Queries and mutations (invalidate, setQueryData) use these constants, never a path
 * spelled out again, so a key prefix cannot drift between the query and what refreshes it.
 */

// Session and the shell.
export const meQueryKey = ['/api/auth/me'] as const;
export const publicConfigQueryKey = ['/api/public-config'] as const;
export const unreadCountQueryKey = ['/api/notifications/unread-count'] as const;
export const notificationsQueryKey = ['/api/notifications'] as const;

// Figures: all time, today, a period's charts and report.
export const metricsQueryKey = ['/api/metrics'] as const;
export const todayMetricsQueryKey = ['/api/metrics/today'] as const;
export const analyticsQueryKey = (period: Period) => ['/api/metrics/analytics', period.from, period.to] as const;
export const reportQueryKey = (period: Period) => ['/api/metrics/report', period.from, period.to] as const;

/** Prefix of every campaigns query (list, recipients); mutations invalidate it. */
export const campaignsQueryKey = ['/api/campaigns'] as const;
/** Prefix of every audience count; contact and group changes invalidate it. */
export const audienceQueryKey = ['/api/campaigns/audience'] as const;
export const campaignPreviewQueryKey = ['/api/campaigns/preview'] as const;

/** Prefix of every contacts query; mutations invalidate it. */
export const contactsQueryKey = ['/api/contacts'] as const;
/**
 * GET /api/contacts/tags (its key path). Under the contacts key, so every change to contacts (save,
 * delete, import, bulk action) refreshes the tags and their counts too.
 */
export const contactTagsQueryKey = [...contactsQueryKey, 'tags'] as const;
export const groupsQueryKey = ['/api/groups'] as const;
/** The saved messages list (SPEC §7: refetched after a message is saved). */
export const savedMessagesQueryKey = ['/api/messages'] as const;
/** GET /api/quick-replies: the team's quick replies (Respostas rápidas); every change invalidates it. */
export const quickRepliesQueryKey = ['/api/quick-replies'] as const;
/**
 * GET /api/queues: the team's queues (Filas), with their open conversations; every change to a queue
 * invalidates it (and the conversations, which carry their queue's name).
 */
export const queuesQueryKey = ['/api/queues'] as const;

/** Prefix of every conversations query (the list and each conversation); a send invalidates it. */
export const conversationsQueryKey = ['/api/conversations'] as const;
/**
 * One conversation: a contact on one of the account's numbers (`connectionId`), or, without it, the
 * contact's conversation the server picks. Strings after the base key (the lists have an object
 * there), so [..., phone] is also the prefix of every conversation of that contact.
 */
export const conversationQueryKey = (phone: string, connectionId?: string | null) =>
  connectionId
    ? ([...conversationsQueryKey, phone, connectionId] as const)
    : ([...conversationsQueryKey, phone] as const);
/** The account's whole bot config; the dialog, the manager and the page share this one query. */
export const botConfigQueryKey = ['/api/bot-config'] as const;

// WhatsApp: the personal session, the sending channel, the Cloud API.
export const whatsappSessionQueryKey = ['/api/whatsapp-session'] as const;
export const whatsappChannelQueryKey = ['/api/whatsapp/channel'] as const;
export const cloudApiConfigQueryKey = ['/api/whatsapp-business/config'] as const;
export const cloudApiHealthQueryKey = ['/api/whatsapp-business/health'] as const;
export const cloudApiTemplatesQueryKey = ['/api/whatsapp-business/templates'] as const;
export const businessProfileQueryKey = ['/api/whatsapp-business/profile'] as const;
/** Prefix of every connections query (the account's numbers and each number); mutations invalidate it. */
export const connectionsQueryKey = ['/api/connections'] as const;
/** GET /api/connections/{id}: one number, with its QR code while it pairs. */
export const connectionQueryKey = (id: string) => [...connectionsQueryKey, id] as const;

// Settings.
export const profileQueryKey = ['/api/settings/profile'] as const;
export const whatsappSettingsQueryKey = ['/api/settings/whatsapp'] as const;
export const notificationSettingsQueryKey = ['/api/settings/notifications'] as const;

// The team (Equipe) and an invitation's link.
/** GET /api/team: members, the plan's limit and open invitations; every team change invalidates it. */
export const teamQueryKey = ['/api/team'] as const;
/** GET /api/auth/invitation?token=…: what the link offers (its own query function: the token is a query parameter). */
export const invitationQueryKey = (token: string) => ['/api/auth/invitation', token] as const;

// Admin, presence and the demo page.
export const adminUsersQueryKey = ['/api/admin/users'] as const;
export const verifyListQueryKey = ['/api/users/verify-list'] as const;
export const activeUsersQueryKey = ['/api/users/active'] as const;
export const onlineCountQueryKey = ['/api/users/online-count'] as const;
export const activityQueryKey = ['/api/activity'] as const;
export const recentActivationsQueryKey = ['/api/plan-activations/recent'] as const;
