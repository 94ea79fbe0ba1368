/** Business constants of SPEC §9, shared by the server and the browser app. */

export const DEMO_DURATION_MS = 2 * 60 * 60 * 1000;

export const POLL_INTERVALS_MS = {
  onlineCount: 30_000,
  activeUsers: 10_000,
  whatsappSession: 2_000,
  businessHealth: 10_000,
  /** The header's figures of the day (GET /api/metrics/today). */
  todayFigures: 60_000,
} as const;

export const AUTH_CACHE_MS = 5 * 60 * 1000;

export const TOAST = {
  durationMs: 5_000,
  swipeThresholdPx: 50,
  hotkey: 'F8',
  limit: 1,
  landingSignupToastMs: 15_000,
  landingSignupPopupMs: 20_000,
  landingSignupRedirectMs: 18_000,
  purchaseToastMs: 4_000,
  purchaseDelaysSec: [3, 10, 15, 25, 40, 60, 90],
} as const;

export const MOBILE_BREAKPOINT_PX = 1024;

export const DASHBOARD_RECENT_CAMPAIGNS = 3;

/** SPEC §9 defaults of an account's settings: the one place they are written (table, service and forms read them). */
export const DEFAULT_WHATSAPP_SETTINGS = {
  autoReconnect: true,
  messageDelay: 2,
  dailyLimit: 1000,
  respectBusinessHours: true,
  businessStart: '09:00',
  businessEnd: '18:00',
  channel: 'personal',
} as const;

export const DEFAULT_NOTIFICATION_SETTINGS = {
  emailNotifications: true,
  pushNotifications: true,
  campaignUpdates: true,
  systemAlerts: false,
  marketingEmails: true,
} as const;

export const BUSINESS_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
