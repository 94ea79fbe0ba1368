/** Every URL of the browser app, in one place (DESIGN §5). */
export const paths = {
  home: '/',
  login: '/login',
  loginExpired: '/login?expired=1',
  register: '/login?tab=register',
  demo: '/demo',
  landingPlans: '/#precos',
  dashboard: '/dashboard',
  campaigns: '/campaigns',
  chatbot: '/chatbot',
  conversations: '/conversations',
  contacts: '/contacts',
  groups: '/groups',
  reports: '/reports',
  settings: '/settings',
  adminUsers: '/admin/users',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
