import type { APIResponse, Page, Response } from '@playwright/test';
import { botMsg, weekdays } from '../contract/bot';
import { savedMessagesMsg } from '../contract/saved-messages';
import { tokenizeWhatsapp } from '../contract/whatsapp-text';
import { ADMIN, expect, expectOk, login, postJson, putJson, shot, test, unique } from './fixtures';

/**
 * Stored XSS: every text a customer can store holds script and event-handler payloads, and every page
 * that shows those texts shows them as text. A probe installed before any page script records an
 * assignment to `window.__xss` (from the page or from a frame), a dialog, a request for the `x` an
 * injected <img src=x> would load, and every Content-Security-Policy violation.
 */

const P = {
  script: '<script>window.__xss=1</script>',
  img: '<img src=x onerror="window.__xss=1">',
  svg: '<svg onload=window.__xss=1>',
  iframe: '"><iframe srcdoc="<script>parent.__xss=1</script>">',
  template: "{{constructor.constructor('window.__xss=1')()}}",
  markdown: '[x](javascript:window.__xss=1)',
  jsUrl: 'javascript:window.__xss=1',
} as const;

/** A reply button's text is at most 20 characters: the shortest handler that still sets the flag. */
const SHORT = '<svg onload=__xss=1>';

const T = {
  registered: `Rita ${P.svg}`,
  profileName: `Rita ${P.img}`,
  company: `Loja ${P.script}`,
  contactA: `Ana ${P.img}`,
  contactB: `Bia ${P.iframe}`,
  contactC: P.template,
  contactD: `Caio ${P.markdown}`,
  imported: `Duda ${P.script}`,
  tagA: P.svg,
  tagB: P.markdown,
  groupA: `Grupo ${P.script}`,
  groupB: `Turma ${P.iframe}`,
  campaignSent: `Campanha ${P.img}`,
  campaignSentMessage: `Oi {{primeiro_nome}} ${P.script} ${P.markdown} ${P.template}`,
  campaignDraft: P.template,
  campaignDraftMessage: `Rascunho ${P.iframe} ${P.svg}`,
  savedHtmlTitle: `HTML ${P.svg}`,
  savedHtmlContent: `<p>Oferta ${P.script}</p><img src=x onerror="window.__xss=1"><b>${P.svg}negrito</b> <a href="javascript:window.__xss=1">link</a>`,
  savedTextTitle: `Texto ${P.iframe}`,
  savedTextContent: `Texto ${P.img} ${P.markdown} ${P.template}`,
  welcome: `Bem-vindo ${P.script}`,
  outOfHours: `Fora do expediente ${P.svg}`,
  aiInstructions: `Instruções ${P.iframe}`,
  trigger: `promo ${P.img}`,
  reply: `Resposta ${P.iframe} ${P.markdown} ${P.template}`,
  quickReply: `menu ${P.svg}`,
  inbound: `Oi ${P.svg}`,
  manual: `Manual ${P.img} ${P.jsUrl}`,
  importFile: `${P.svg}.csv`,
} as const;

/** The numbers (21) 99876-5431 and (11) 91234-5677 have WhatsApp in the simulator; one ending in 0 has not. */
const PHONE_A = '5521998765431';

interface Probe {
  executions: string[];
  dialogs: string[];
  injectedRequests: string[];
  violations: string[];
}

/** Installs the probe on every document and frame `page` loads from now on. */
async function installProbe(page: Page): Promise<Probe> {
  const probe: Probe = { executions: [], dialogs: [], injectedRequests: [], violations: [] };
  await page.exposeBinding('__xssExecuted', ({ frame }, where: string) => {
    probe.executions.push(`${where} (${frame.url()})`);
  });
  await page.exposeBinding('__cspViolation', (_source, what: string) => {
    probe.violations.push(what);
  });
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    let value: unknown;
    Object.defineProperty(window, '__xss', {
      configurable: false,
      get: () => value,
      set: (v) => {
        value = v;
        (w.__xssExecuted as (where: string) => void)(String(location.href));
      },
    });
    document.addEventListener('securitypolicyviolation', (e) => {
      (w.__cspViolation as (what: string) => void)(
        `${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
      );
    });
  });
  page.on('dialog', async (d) => {
    probe.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss();
  });
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/x') probe.injectedRequests.push(r.url());
  });
  return probe;
}

/** Nothing ran, nothing was injected, and nothing even tried (a CSP violation would mean markup got in). */
async function expectInert(page: Page, probe: Probe, where: string) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), `${where}: window.__xss`).toBe(
    undefined,
  );
  expect(probe.executions, `${where}: executed payloads`).toEqual([]);
  expect(probe.dialogs, `${where}: dialogs`).toEqual([]);
  expect(probe.injectedRequests, `${where}: requests of an injected <img src=x>`).toEqual([]);
  expect(probe.violations, `${where}: CSP violations`).toEqual([]);
}

/** The page's own document carries a policy that forbids inline script, plugins and framing. */
function expectPolicy(response: Response | null, where: string) {
  expect(response, `${where}: document response`).not.toBeNull();
  const csp = response?.headers()['content-security-policy'] ?? '';
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values] as const),
  );
  const scriptSrc = directives.get('script-src') ?? directives.get('default-src') ?? [];
  expect(scriptSrc, `${where}: script-src`).toContain("'self'");
  // script-src-attr and script-src-elem (Helmet sends script-src-attr 'none') may only narrow it.
  for (const name of ['script-src', 'script-src-attr', 'script-src-elem']) {
    for (const loose of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", 'data:', '*', 'http:', 'https:']) {
      expect(directives.get(name) ?? [], `${where}: ${name}`).not.toContain(loose);
    }
  }
  expect(directives.get('object-src'), `${where}: object-src`).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors'), `${where}: frame-ancestors`).toEqual(["'none'"]);
}

async function visit(page: Page, probe: Probe, url: string): Promise<void> {
  const response = await page.goto(url);
  expectPolicy(response, url);
  await expectInert(page, probe, url);
}

interface Refusal {
  message: string;
  fieldErrors?: Record<string, string>;
}

async function refused(res: Promise<APIResponse>, label: string): Promise<Refusal> {
  const r = await res;
  expect(r.status(), label).toBe(400);
  return r.json();
}

const visibleText = (page: Page, text: string) => expect(page.getByText(text, { exact: false }).first()).toBeVisible();
/**
 * A text as the message previews show it: WhatsApp's formatting applied and its markers gone (the
 * payloads' `window.__xss` pair their underscores up into italics, as on a phone).
 */
const asWhatsapp = (text: string) =>
  tokenizeWhatsapp(text)
    .map((r) => r.text)
    .join('');

/**
 * Stores the payloads through the API, in every field that keeps customer text. What takes a while
 * (the campaign going out, the bot answering) runs in the background; `settle` waits for it.
 */
async function storePayloads(page: Page): Promise<{ settle: () => Promise<void> }> {
  const req = page.request;
  const settingsOk = putJson(req, '/api/settings/whatsapp', {
    autoReconnect: true,
    messageDelay: 1,
    dailyLimit: 1000,
    respectBusinessHours: false,
    businessStart: '09:00',
    businessEnd: '18:00',
  });
  await expectOk(settingsOk, 'WhatsApp settings');
  // Connecting takes a few seconds: the campaign and the conversation wait for it at the end.
  await expectOk(postJson(req, '/api/whatsapp/connect', {}), 'WhatsApp connect');

  // The bot's texts of every kind; link buttons and images refuse javascript: addresses.
  const jsButton = await refused(
    postJson(req, '/api/bot-config', {
      autoReplies: [
        {
          trigger: 'site',
          response: 'Nosso site',
          type: 'interactive',
          buttons: [{ text: 'Abrir', type: 'url', value: P.jsUrl }],
        },
      ],
    }),
    'bot url button javascript:',
  );
  expect(jsButton.fieldErrors).toEqual({ 'autoReplies.0.buttons.0.value': botMsg.buttonUrlInvalid });
  const botImage = await refused(
    postJson(req, '/api/bot-config', {
      autoReplies: [{ trigger: 'foto', response: 'Foto', type: 'image', imageUrl: P.jsUrl }],
    }),
    'bot image javascript:',
  );
  expect(botImage.message).toBe(botMsg.imageUrlInvalid);
  await expectOk(
    postJson(req, '/api/bot-config', {
      isEnabled: true,
      welcomeMessage: T.welcome,
      outOfHoursMessage: T.outOfHours,
      // Open around the clock: the conversation below must get the welcome and the rule's reply
      // whenever the test runs (the out-of-hours text is checked in the editor).
      businessHours: { start: '00:00', end: '23:59', days: [...weekdays] },
      aiInstructions: T.aiInstructions,
      autoReplies: [
        {
          trigger: T.trigger,
          response: T.reply,
          type: 'interactive',
          buttons: [
            { text: SHORT, type: 'quick_reply', value: T.quickReply },
            { text: 'Site', type: 'url', value: `https://example.com/?q=${encodeURIComponent(P.script)}` },
          ],
        },
        { trigger: T.quickReply, response: `Menu ${P.svg}` },
      ],
    }),
    'bot config',
  );

  // Contacts and tags; the sent campaign goes to the first one (its tag).
  await expectOk(
    postJson(req, '/api/contacts', { name: T.contactA, phone: '(21) 99876-5431', tags: [T.tagA, T.tagB] }),
    'contact A',
  );

  // Campaigns: one sent (its name reaches a notification and the reports), one draft aimed at a group.
  const sent = await (
    await expectOk(
      postJson(req, '/api/campaigns', {
        name: T.campaignSent,
        message: T.campaignSentMessage,
        targetType: 'contacts',
        targetTags: [T.tagA],
      }),
      'campaign',
    )
  ).json();
  const sentId: string = sent.campaign?.id ?? sent.id;
  // Profile.
  const me = await (await req.get('/api/settings/profile')).json();
  await expectOk(
    putJson(req, '/api/settings/profile', { name: T.profileName, email: me.email, phone: '', company: T.company }),
    'profile',
  );

  // More contacts and tags; an e-mail cannot carry markup at all.
  await expectOk(
    postJson(req, '/api/contacts', { name: T.contactB, phone: '(11) 91234-5677', tags: [P.img] }),
    'contact B',
  );
  await expectOk(
    postJson(req, '/api/contacts', { name: T.contactC, phone: '(31) 98888-7771', tags: [P.template] }),
    'C',
  );
  await expectOk(postJson(req, '/api/contacts', { name: T.contactD, phone: '(41) 98777-6651', tags: [P.script] }), 'D');
  await refused(
    postJson(req, '/api/contacts', { name: 'Eva', phone: '(41) 98777-6653', email: `"${P.svg}"@example.com` }),
    'an e-mail with markup',
  );

  // A contacts file whose name is a payload (the activity log shows it).
  await expectOk(
    req.post('/api/contacts/import', {
      headers: { Origin: new URL(test.info().project.use.baseURL ?? '').origin },
      multipart: {
        file: {
          name: T.importFile,
          mimeType: 'text/csv',
          buffer: Buffer.from(`Nome;Telefone\n${T.imported};(41) 98777-6655\n`),
        },
      },
    }),
    'import',
  );

  // Groups.
  // Group A is linked to a WhatsApp group (a campaign may aim only at such a group); B is not.
  await expectOk(
    postJson(req, '/api/groups', { name: T.groupA, whatsappGroupId: '120363000000000077@g.us' }),
    'group A',
  );
  await expectOk(postJson(req, '/api/groups', { name: T.groupB }), 'group B');

  // Saved messages: HTML mode (sanitised on the way in) and plain text; a javascript: image link is refused.
  const html = await (
    await expectOk(
      postJson(req, '/api/messages', {
        title: T.savedHtmlTitle,
        content: T.savedHtmlContent,
        contentType: 'html',
      }),
      'saved HTML message',
    )
  ).json();
  // The title is plain text and kept as typed; the HTML keeps only harmless formatting.
  expect(html.savedMessage.title).toBe(T.savedHtmlTitle);
  for (const gone of ['<script', 'onerror', 'onload', '<img', '<svg', 'javascript:', '<a ', '__xss']) {
    expect(html.savedMessage.content, `sanitised HTML keeps no ${gone}`).not.toContain(gone);
  }
  expect(html.savedMessage.preview).toBe('Oferta\n\nlink');
  await expectOk(
    postJson(req, '/api/messages', { title: T.savedTextTitle, content: T.savedTextContent }),
    'saved text',
  );
  const jsImage = await refused(
    postJson(req, '/api/messages', { title: 'Imagem', content: 'Oi', hasImage: true, imageUrl: P.jsUrl }),
    'saved message image javascript:',
  );
  expect(jsImage.message).toBe(savedMessagesMsg.imageUrlInvalid);

  // A campaign's image is an http(s) link or an upload; the draft goes to the group with the payload name.
  await refused(
    postJson(req, '/api/campaigns', { name: 'Imagem', message: 'Oi', imageUrl: P.jsUrl }),
    'campaign image javascript:',
  );
  await expectOk(
    postJson(req, '/api/campaigns', {
      name: T.campaignDraft,
      message: T.campaignDraftMessage,
      targetType: 'groups',
      targetGroups: [T.groupA],
    }),
    'draft campaign',
  );

  // The simulated WhatsApp has been connecting meanwhile: send the campaign and start the conversation.
  await expect
    .poll(async () => (await (await req.get('/api/whatsapp-session')).json()).phoneNumber, { timeout: 15_000 })
    .toBeTruthy();
  await expectOk(postJson(req, `/api/campaigns/${sentId}/send`, {}), 'send');

  // A conversation: the welcome, an automatic reply and a hand-off to a person (a notification naming the contact).
  for (const text of [T.inbound, T.trigger, 'quero falar com um atendente']) {
    await expectOk(postJson(req, '/api/whatsapp/simulator/inbound', { from: PHONE_A, text }), `inbound ${text}`);
  }

  return {
    settle: async () => {
      await expect
        .poll(
          async () => {
            const detail = await (await req.get(`/api/conversations/${PHONE_A}`)).json();
            return (detail.messages ?? [])
              .filter((m: { source: string }) => m.source === 'bot')
              .map((m: { text: string }) => m.text);
          },
          { timeout: 10_000 },
        )
        .toEqual(expect.arrayContaining([T.welcome, T.reply, expect.stringContaining('atendente')]));
      // A reply by hand, once the bot has answered (it hands the conversation over to a person).
      await expectOk(postJson(req, `/api/conversations/${PHONE_A}/messages`, { text: T.manual }), 'manual reply');
      await expect
        .poll(async () => (await (await req.get(`/api/campaigns/${sentId}`)).json()).status, { timeout: 20_000 })
        .toBe('completed');
    },
  };
}

test('stored script and event-handler payloads show as text on every page, under a strict CSP', async ({
  page,
  browser,
  consoleErrors,
}) => {
  // About 30 s on a quiet machine; the margin is for a busy one.
  test.setTimeout(90_000);
  const probe = await installProbe(page);

  // The probe itself: markup forced into the page is stopped by the policy, and an assignment is seen.
  await page.goto('/login');
  await page.evaluate(() => {
    const div = document.createElement('div');
    div.innerHTML = '<img src="data:," onerror="window.__xss=1">';
    document.body.append(div);
  });
  await expect.poll(() => probe.violations.join('\n')).toContain('script-src-attr');
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(probe.executions).toEqual([]);
  probe.violations.length = 0;
  const blocked = consoleErrors.findIndex((e) => /Content Security Policy/.test(e));
  expect(blocked, 'the browser reports the blocked handler').toBeGreaterThanOrEqual(0);
  consoleErrors.splice(blocked, 1);
  await page.evaluate(() => {
    (window as unknown as { __xss: number }).__xss = 1;
  });
  expect(probe.executions).toHaveLength(1);
  probe.executions.length = 0;

  // A new account, approved by the administrator (whose pages are visited at the end).
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const adminProbe = await installProbe(admin);
  const adminErrors: string[] = [];
  admin.on('console', (m) => {
    // The sign-in page first asks who is signed in: a 401, as for any visitor.
    if (m.type() === 'error' && !/status of 401/.test(m.text())) adminErrors.push(m.text());
  });
  admin.on('pageerror', (e) => adminErrors.push(String(e)));
  await login(admin, ADMIN.username, ADMIN.password);
  const customer = { username: unique('xss'), password: 'segredo123' };
  await expectOk(
    postJson(page.request, '/api/auth/register', {
      name: T.registered,
      email: `${customer.username}@example.com`,
      username: customer.username,
      password: customer.password,
      whatsappNumber: '(11) 98765-4321',
    }),
    'registration',
  );
  const users: Array<{ id: string; username: string }> = await (await admin.request.get('/api/admin/users')).json();
  const id = users.find((u) => u.username === customer.username)?.id;
  expect(id, 'the new account in the admin list').toBeTruthy();
  await expectOk(
    admin.request.patch(`/api/admin/users/${id}`, {
      data: { accountType: 'active', isActive: true },
      headers: { Origin: new URL(test.info().project.use.baseURL ?? '').origin },
    }),
    'approval',
  );
  await login(page, customer.username, customer.password);
  const stored = await storePayloads(page);

  // Dashboard: the header's name, recent campaigns, the bot's messages, analytics, verification and activity.
  await visit(page, probe, '/dashboard');
  await visibleText(page, T.profileName);
  await visibleText(page, T.campaignSent);
  await visit(page, probe, '/dashboard?tab=chatbot');
  for (const text of [`“${T.trigger}”`, asWhatsapp(T.reply), `${SHORT}:`]) await visibleText(page, text);
  await visit(page, probe, '/dashboard?tab=analytics');
  await visit(page, probe, '/dashboard?tab=verification');
  await visibleText(page, T.profileName);
  await page.getByRole('tab', { name: 'Atividade' }).click();
  await visibleText(page, `${T.importFile}: 1 contato importado com sucesso`);
  await expectInert(page, probe, 'activity log');

  // Contacts: names and tags; the edit dialog holds the stored name as a value.
  await visit(page, probe, '/contacts');
  for (const text of [T.contactA, T.contactB, T.contactC, T.contactD, T.imported, T.tagA, T.tagB, P.img, P.script]) {
    await visibleText(page, text);
  }
  await page.getByRole('button', { name: `Editar ${T.contactB}` }).click();
  await expect(page.getByRole('dialog').getByLabel('Nome', { exact: true })).toHaveValue(T.contactB);
  await page.keyboard.press('Escape');
  await page.screenshot(shot('xss-contacts-1366'));
  await expectInert(page, probe, 'contacts');

  await visit(page, probe, '/groups');
  await visibleText(page, T.groupA);
  await visibleText(page, T.groupB);

  // Campaigns, saved messages (HTML shown as WhatsApp text), the report and the edit dialog.
  await visit(page, probe, '/campaigns');
  for (const text of [T.campaignSent, T.campaignDraft, T.campaignDraftMessage, `Grupos: ${T.groupA}`]) {
    await visibleText(page, text);
  }
  await visibleText(page, `Contatos com a tag ${T.tagA}`);
  await visibleText(page, T.campaignSentMessage);
  await visibleText(page, T.savedHtmlTitle);
  await visibleText(page, T.savedTextTitle);
  await visibleText(page, asWhatsapp(T.savedTextContent));
  // The HTML message as WhatsApp shows it: its text, with the markup gone.
  await expect(page.getByRole('listitem').filter({ hasText: T.savedHtmlTitle })).toContainText(/Oferta\s+link/);

  // A new campaign from the saved text message: the live preview names real (payload-named) contacts.
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const compose = page.getByRole('dialog', { name: 'Nova Campanha' });
  await compose.getByLabel('Usar uma mensagem salva (opcional)').selectOption({ label: T.savedTextTitle });
  await expect(compose.getByLabel('Mensagem', { exact: true })).toHaveValue(T.savedTextContent);
  await compose.getByLabel('Mensagem', { exact: true }).fill(`Olá {{nome}} ${P.svg}`);
  await expect(compose.getByTestId('campaign-preview-item').first()).toContainText(
    /Olá (Ana <img|Bia "><iframe|\{\{constructor|Caio \[x\]\(javascript|Duda <script).* <svg onload=window\.__?xss=1>/,
  );
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: `Editar mensagem ${T.savedTextTitle}` }).click();
  await expect(page.getByRole('dialog').getByLabel('Conteúdo da mensagem')).toHaveValue(T.savedTextContent);
  await page.keyboard.press('Escape');
  const sentCard = page.getByTestId('campaign-card').filter({ hasText: T.campaignSent });
  await sentCard.getByRole('button', { name: /Relatório/ }).click();
  const report = page.getByRole('dialog', { name: 'Relatório da campanha' });
  await expect(report.getByTestId('recipient-row').first()).toContainText(T.contactA);
  await page.screenshot({ ...shot('xss-campaign-report-1366'), fullPage: false });
  await page.keyboard.press('Escape');
  const draftCard = page.getByTestId('campaign-card').filter({ hasText: T.campaignDraftMessage });
  await draftCard.getByRole('button', { name: /Editar/ }).click();
  await expect(page.getByRole('dialog').getByLabel('Nome da campanha')).toHaveValue(T.campaignDraft);
  await page.keyboard.press('Escape');
  await expectInert(page, probe, 'campaigns');

  // Chatbot page, its config dialog (every text as a field value) and the automatic messages.
  await visit(page, probe, '/chatbot');
  for (const text of [T.welcome, `“${T.trigger}”`, asWhatsapp(T.reply), SHORT]) await visibleText(page, text);
  await page.getByRole('button', { name: 'Configurar Chatbot' }).click();
  const config = page.getByRole('dialog', { name: 'Configurar Chatbot' });
  await expect(config.getByLabel('Mensagem de boas-vindas')).toHaveValue(T.welcome);
  await expect(config.getByLabel('Palavra-chave', { exact: true }).first()).toHaveValue(T.trigger);
  await expect(config.getByLabel('Resposta', { exact: true }).first()).toHaveValue(T.reply);
  await config.getByText('Mais opções').click();
  await expect(config.getByLabel('Mensagem fora do expediente')).toHaveValue(T.outOfHours);
  await page.keyboard.press('Escape');
  await expectInert(page, probe, 'chatbot');

  await stored.settle();

  // The conversation: the contact's name, the inbound text, the bot's replies and the one by hand
  // (bubbles apply WhatsApp's formatting, as the previews do).
  await visit(page, probe, `/conversations?phone=${PHONE_A}`);
  await visibleText(page, T.contactA);
  for (const text of [T.inbound, T.welcome, T.reply, T.manual]) await visibleText(page, asWhatsapp(text));
  await page.screenshot({ ...shot('xss-conversation-1366'), fullPage: false });

  // The bell: the finished campaign and the hand-off name stored texts.
  await page.getByTestId('notifications-bell').click();
  const panel = page.getByRole('dialog', { name: 'Notificações' });
  await expect(panel.getByText(`“${T.campaignSent}”`, { exact: false })).toBeVisible();
  await expect(panel.getByText(T.contactA, { exact: false })).toBeVisible();
  await expectInert(page, probe, 'notifications');
  await page.keyboard.press('Escape');

  await visit(page, probe, '/settings');
  await expect(page.getByLabel('Nome', { exact: true })).toHaveValue(T.profileName);
  await expect(page.getByLabel('Empresa')).toHaveValue(T.company);

  await visit(page, probe, '/reports');
  for (const name of [T.campaignSent, T.campaignDraft]) {
    await expect(page.getByTestId('report-campaign').filter({ hasText: name })).toHaveCount(1);
  }
  await expect(page.getByTestId('report-top-campaign').first()).toContainText(T.campaignSent);
  await expectInert(page, probe, 'reports');

  // The administrator sees the account's names: the user list and the sign-up notification.
  await visit(admin, adminProbe, '/admin/users');
  const card = admin.getByRole('article').filter({ hasText: customer.username });
  await expect(card).toContainText(T.profileName);
  await admin.getByTestId('notifications-bell').click();
  await expect(
    admin.getByRole('dialog', { name: 'Notificações' }).getByText(T.registered, { exact: false }),
  ).toBeVisible();
  await admin.screenshot(shot('xss-admin-notifications-1366'));
  await expectInert(admin, adminProbe, 'admin');
  expect(adminErrors, 'admin console errors').toEqual([]);
  await adminContext.close();

  await expectInert(page, probe, 'end');
});
