/** Every URL of the browser app, in one place (DESIGN §5). */
export const paths = {
  home: '/',
  login: '/login',
  loginExpired: '/login?expired=1',
  register: '/login?tab=register',
  /** 'Esqueci minha senha'; the e-mailed link opens `resetPassword?token=…` (names fixed by the API). */
  forgotPassword: '/esqueci-senha',
  resetPassword: '/redefinir-senha',
  loginAfterReset: '/login?reset=1',
  /** The 'Confirme seu email' link: `confirmEmail?token=…`. */
  confirmEmail: '/confirmar-email',
  /** The e-mailed invitation to an account's team: `invitation?token=…` (the name the API's link uses). */
  invitation: '/convite',
  loginAfterInvitation: '/login?convite=1',
  demo: '/demo',
  landingPlans: '/#precos',
  dashboard: '/dashboard',
  /** Números: the account's WhatsApp numbers. */
  connections: '/numeros',
  campaigns: '/campaigns',
  chatbot: '/chatbot',
  conversations: '/conversations',
  /** Filas: the team's queues (every role reads them; owner and managers keep them). */
  queues: '/filas',
  contacts: '/contacts',
  groups: '/groups',
  reports: '/reports',
  settings: '/settings',
  /** Equipe: the account's members and invitations (owner and managers). */
  team: '/equipe',
  /** The 'Planos' tab of Configurações, where an account upgrades. */
  settingsPlans: '/settings?tab=planos',
  adminUsers: '/admin/users',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** Conversas' parameter for its queue filter (`?queue=<queue id>`). */
export const QUEUE_PARAM = 'queue';

/** Conversas showing one queue's conversations only. */
export function queueConversationsPath(queueId: string): string {
  return `${paths.conversations}?${new URLSearchParams({ [QUEUE_PARAM]: queueId })}`;
}
