import { DEFAULT_WHATSAPP_SETTINGS } from '../../contract/constants';
import { apiFetch, listen } from './raw-http';
import { createUser, loginAs, type TestContext } from './test-app';

let seq = 0;
const unique = () => `${Date.now().toString(36)}${seq++}`;
/**
 * A valid body for each route that takes one: the property replaces one field at a time, so the
 * hostile value is the only thing wrong and reaches as deep as validation lets it. A route with a
 * body and no example fails the suite.
 */
export const EXAMPLES: Record<string, () => Record<string, unknown>> = {
  // A new username each time: repeated failures on one would be slowed down on purpose.
  'POST /api/auth/login': () => ({ username: `ninguem${unique()}`, password: 'errada123' }),
  'POST /api/auth/register': () => {
    const n = unique();
    return {
      name: 'Nova Conta',
      email: `n${n}@example.com`,
      username: `n${n}`,
      password: 'senha-123',
      whatsappNumber: '+55 11 98888-7777',
    };
  },
  'POST /api/auth/demo-signup': () => ({
    name: 'Demo',
    whatsappNumber: '+55 11 98888-7777',
    email: `d${unique()}@example.com`,
  }),
  'POST /api/auth/signup': () => ({
    name: 'Cliente',
    email: `s${unique()}@example.com`,
    whatsappNumber: '+55 11 98888-7777',
  }),
  // Addresses nobody has: no e-mail leaves, the answer is the same.
  'POST /api/auth/forgot-password': () => ({ email: `f${unique()}@example.com` }),
  'POST /api/auth/reset-password': () => ({ token: `link-${unique()}`, password: 'nova-senha-1' }),
  'POST /api/auth/confirm-email': () => ({ token: `link-${unique()}` }),
  'POST /api/auth/accept-invitation': () => ({
    token: `link-${unique()}`,
    username: `m${unique()}`,
    password: 'senha-membro-1',
  }),
  // Codes nobody's app shows: the sign-in halfway and the setups are refused as a person's would be.
  'POST /api/auth/login/2fa': () => ({ code: '123456' }),
  'POST /api/auth/2fa/enable': () => ({ code: '123456' }),
  'POST /api/auth/2fa/disable': () => ({ password: 'errada-123', code: '123456' }),
  // Requiring it would hold the suite's own login to a setup.
  'PUT /api/team/settings': () => ({ requireTwoFactor: false }),
  'POST /api/conversations/:phone/assign': () => ({ memberId: null }),
  'POST /api/conversations/:phone/notes': () => ({ text: 'Cliente pediu retorno amanhã, @ana' }),
  'POST /api/conversations/:phone/status': () => ({ status: 'pending' }),
  'POST /api/quick-replies': () => ({ shortcut: `r${unique()}`, text: 'Olá {{nome}}!' }),
  'PUT /api/quick-replies/:id': () => ({ shortcut: `r${unique()}`, text: 'Olá!' }),
  'POST /api/queues': () => ({
    name: `Fila ${unique()}`,
    hours: { start: '08:00', end: '18:00', days: ['monday', 'friday'] },
    outOfHoursMessage: 'Voltamos às 8h.',
  }),
  'PUT /api/queues/:id': () => ({ name: `Fila ${unique()}`, assignment: 'round_robin' }),
  'POST /api/team/invitations': () => ({ name: 'Pessoa Convidada', email: `c${unique()}@example.com`, role: 'agent' }),
  'PATCH /api/team/:id': () => ({ role: 'agent' }),
  'PATCH /api/admin/users/:id': () => ({ isActive: true, planType: 'basic', accountType: 'active' }),
  'POST /api/auth/change-password': () => ({
    currentPassword: 'errada-123',
    newPassword: 'nova-senha-1',
    confirmPassword: 'nova-senha-1',
  }),
  'PUT /api/settings/profile': () => ({
    name: 'Cliente',
    email: `p${unique()}@example.com`,
    phone: '+55 11 98888-7777',
    company: 'Empresa',
  }),
  'PUT /api/settings/notifications': () => ({
    emailNotifications: true,
    pushNotifications: true,
    campaignUpdates: true,
    systemAlerts: false,
    marketingEmails: true,
  }),
  'PUT /api/settings/whatsapp': () => ({ ...DEFAULT_WHATSAPP_SETTINGS }),
  'POST /api/whatsapp/connect': () => ({}),
  'POST /api/whatsapp/simulator/inbound': () => ({ from: '5521980000009', text: 'Olá' }),
  'POST /api/whatsapp/simulator/restrict': () => ({ code: '463' }),
  'POST /api/whatsapp-business/configure': () => ({
    accessToken: 'EAAB'.padEnd(40, 'x'),
    phoneNumberId: '123456789012345',
    businessAccountId: '987654321098765',
    appId: '1234567890',
    appSecret: 'abcdef0123456789abcdef0123456789',
  }),
  'POST /api/connections': () => ({ kind: 'personal', label: `Número ${unique()}` }),
  'PATCH /api/connections/:id': () => ({
    label: `Vendas ${unique()}`,
    paused: false,
    settings: { messageDelay: 5, dailyLimit: 300, businessStart: '08:00', businessEnd: '18:00' },
  }),
  'POST /api/connections/:id/connect': () => ({}),
  'POST /api/contacts': () => ({
    name: 'Contato',
    phone: `219${String(10_000_000 + seq++).slice(-8)}`,
    email: 'c@example.com',
    tags: ['vip'],
  }),
  'PUT /api/contacts/:id': () => ({ name: 'Contato', phone: '21998765432', email: 'c@example.com', tags: ['vip'] }),
  // Tags no contact (the id is of nothing): a hostile value is the only thing that can go wrong.
  'POST /api/contacts/bulk': () => ({ action: 'tag', ids: [SAMPLE_ID], tag: 'vip' }),
  'POST /api/groups': () => ({ name: `Grupo ${unique()}`, whatsappGroupId: '120363000000000000@g.us' }),
  'PUT /api/groups/:id': () => ({ name: `Grupo ${unique()}`, whatsappGroupId: '120363000000000001@g.us' }),
  'POST /api/campaigns': () => ({
    name: `Campanha ${unique()}`,
    message: '{Olá|Oi} {{primeiro_nome}}!',
    targetType: 'contacts',
    targetGroups: [],
    status: 'draft',
    targetTags: ['vip'],
  }),
  'PUT /api/campaigns/:id': () => ({ name: `Campanha ${unique()}`, message: 'Oi {{nome}}', targetType: 'all' }),
  'POST /api/campaigns/preview': () => ({ message: 'Oi {{nome}}' }),
  'POST /api/campaigns/:id/test': () => ({ phone: '21998765432' }),
  'POST /api/bot-config': () => ({
    isEnabled: true,
    welcomeMessage: 'Olá!',
    // An image rule first: a hostile value in its first rule's image reaches the upload check.
    autoReplies: [
      { trigger: `f${unique()}`, response: 'Veja', type: 'image', imageUrl: 'https://exemplo.com.br/foto.png' },
      { keyword: `k${unique()}`, response: 'Resposta' },
      {
        trigger: `t${unique()}`,
        response: 'Escolha',
        type: 'interactive',
        imageUrl: '',
        isActive: true,
        buttons: [{ id: 'b1', text: 'Site', type: 'url', value: 'https://exemplo.com.br' }],
      },
    ],
    aiEnabled: false,
    aiModel: 'gpt-3.5-turbo',
    businessHours: { start: '09:00', end: '18:00', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] },
    outOfHoursMessage: '',
    aiInstructions: '',
    handoffMinutes: 120,
  }),
  // An image rule with a button: a hostile value in its image reaches the upload check.
  'POST /api/bot-config/auto-replies': () => autoReplyExample(),
  'PUT /api/bot-config/auto-replies/:id': () => autoReplyExample(),
  'POST /api/conversations/:phone/messages': () => ({ text: 'Olá, aqui é a Maria.' }),
  'POST /api/messages': () => ({
    title: `Mensagem ${unique()}`,
    type: 'contacts',
    enableMessage: true,
    hasImage: true,
    imageUrl: 'https://exemplo.com.br/oferta.png',
    imageFile: '',
    content: '<b>Olá</b> {{nome}}<br>até logo',
    contentType: 'html',
  }),
  'PUT /api/messages/:id': () => ({
    title: `Mensagem ${unique()}`,
    type: 'groups',
    content: 'Oi',
    contentType: 'text',
    hasImage: true,
    imageUrl: 'https://exemplo.com.br/oferta.png',
  }),
  'POST /api/notifications/read': () => ({ ids: [] }),
};

function autoReplyExample(): Record<string, unknown> {
  return {
    trigger: `r${unique()}`,
    response: 'Veja as ofertas',
    type: 'image',
    imageUrl: 'https://exemplo.com.br/foto.png',
    buttons: [{ id: 'btn-1', text: 'Site', type: 'url', value: 'https://exemplo.com.br' }],
    isActive: true,
  };
}

/** Stands for an id of nothing in a path the suites have no real id for. */
export const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/** Real ids where a route edits a resource, so a hostile body reaches past the lookup. */
export const withPathIds = (url: string, ids: Record<string, string>) =>
  url
    .replace('/users/:id', `/users/${ids.user}`)
    .replace('/contacts/:id', `/contacts/${ids.contact}`)
    .replace('/groups/:id', `/groups/${ids.group}`)
    .replace('/campaigns/:id', `/campaigns/${ids.campaign}`)
    .replace('/connections/:id', `/connections/${ids.connection ?? SAMPLE_ID}`)
    .replace(/:(\w+)/g, SAMPLE_ID);

/**
 * A customer and an administrator signed in, and one of each resource `withPathIds` puts in a path
 * (a user, the customer's contact, group, campaign and number), made over a real socket once the
 * app listens at `base`: what the suites driven by the route table send their requests as, and to.
 */
export async function seedRouteTargets(ctx: TestContext) {
  const base = `http://127.0.0.1:${await listen(ctx)}`;
  const cookies: Record<string, string> = {
    customer: await loginAs(ctx, await createUser(ctx)),
    admin: await loginAs(ctx, await createUser(ctx, { accountType: 'admin', planType: 'admin' })),
  };
  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are the routes' own, read for their ids
  const made = async (url: string, body: unknown): Promise<any> =>
    (await apiFetch(base, cookies.customer, 'POST', url, body)).body;
  const contact = await made('/api/contacts', { name: 'Ana', phone: '21998765432' });
  const group = await made('/api/groups', { name: 'Clientes' });
  const ids: Record<string, string> = {
    user: (await createUser(ctx)).id,
    contact: contact.contact?.id ?? contact.id,
    group: group.group?.id ?? group.id,
    campaign: (await made('/api/campaigns', { name: 'Promo', message: 'Olá {{nome}}' })).id,
    connection: (await made('/api/connections', { kind: 'personal', label: 'Vendas' })).connection.id,
  };
  return { base, cookies, ids };
}
