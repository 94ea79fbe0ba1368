import type { Locator, Page } from '@playwright/test';
import { ADMIN, expect, login, postJson, prepareSendingAccount, signInCustomer, test } from './fixtures';

// Issue "Small things a newcomer tripped over": at 390 px every tab, the landing page's 'Preços' and
// the header's 'Nova Campanha' must be visibly reachable, and no screen may scroll sideways.
// Decision 025: a customer replies, takes conversations over, sends campaigns and edits the bot from
// a phone, with buttons a finger can hit and dialogs that fit the screen.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** The top of the screen as the person sees it (not the whole page). */
const screen = (name: string) => ({ path: `e2e/screenshots/${name}.png` });

async function expectNoSideScroll(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what}: page width ${scrollWidth} > ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
}

/** Waits for lazily loaded pages and their data: no skeleton left. */
async function settled(page: Page) {
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.locator('main .animate-pulse')).toHaveCount(0, { timeout: 10_000 });
}

/** The element lies wholly inside the container's visible box (nothing cut off by its scrolling). */
async function expectWhollyInside(element: Locator, container: Locator, what: string) {
  const [box, outer] = await Promise.all([element.boundingBox(), container.boundingBox()]);
  if (!box || !outer) throw new Error(`${what}: not rendered`);
  expect(box.x, `${what}: cut off on the left`).toBeGreaterThanOrEqual(outer.x - 0.5);
  expect(box.x + box.width, `${what}: cut off on the right`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
  expect(outer.x + outer.width, `${what}: beyond the screen`).toBeLessThanOrEqual(390.5);
}

/** The dialog lies inside the 390 × 844 screen (its own content scrolls when it is taller). */
async function expectFitsScreen(dialog: Locator, what: string) {
  await expect(dialog).toBeVisible();
  await expect(async () => {
    const box = await dialog.boundingBox();
    if (!box) throw new Error(`${what}: not rendered`);
    expect(box.x, `${what}: cut off on the left`).toBeGreaterThanOrEqual(0);
    expect(box.y, `${what}: cut off at the top`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${what}: cut off on the right`).toBeLessThanOrEqual(390.5);
    expect(box.y + box.height, `${what}: cut off at the bottom`).toBeLessThanOrEqual(844.5);
    // Nothing inside is wider than the dialog (it would scroll sideways, or spill over its edge).
    const { scrollWidth, clientWidth } = await dialog.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth, `${what}: content ${scrollWidth} px wide in ${clientWidth} px`).toBeLessThanOrEqual(
      clientWidth,
    );
  }).toPass({ timeout: 3_000 });
}

/** A finger's target: at least 44 px tall and wide (WCAG 2.5.5, Apple's and Google's guidance). */
async function expectTouchTarget(target: Locator, what: string) {
  const box = await target.boundingBox();
  if (!box) throw new Error(`${what}: not rendered`);
  expect(box.height, `${what}: ${box.height} px tall`).toBeGreaterThanOrEqual(44);
  expect(box.width, `${what}: ${box.width} px wide`).toBeGreaterThanOrEqual(44);
}

/** Every button inside, visible and enabled, is a finger's target. */
async function expectTouchTargets(area: Locator, what: string) {
  const buttons = area.getByRole('button');
  for (let i = 0; i < (await buttons.count()); i++) {
    const button = buttons.nth(i);
    const box = await button.boundingBox();
    // Hidden, or visually hidden for screen readers only (1 px).
    if (!box || box.width <= 1 || box.height <= 1) continue;
    await expectTouchTarget(
      button,
      `${what}: button '${(await button.innerText()).trim() || (await button.getAttribute('aria-label'))}'`,
    );
  }
}

/** Clicks every tab of a tab bar in turn (scrolling it into view first), checking each opens whole. */
async function activateEveryTab(tablist: Locator, name: string) {
  const tabs = tablist.getByRole('tab');
  const count = await tabs.count();
  expect(count, `${name}: tabs`).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    const tab = tabs.nth(i);
    await tab.scrollIntoViewIfNeeded();
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(async () => expectWhollyInside(tab, tablist, `${name}: tab ${i + 1}`)).toPass({ timeout: 3_000 });
  }
}

test('landing: every section link shows at 390 px and Preços scrolls to the plans', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('landing-countdown')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Seções da página (celular)' });
  for (const name of ['Recursos', 'Como funciona', 'Dashboard', 'Preços']) {
    const link = nav.getByRole('link', { name, exact: true });
    await expect(link).toBeInViewport({ ratio: 1 });
    await expectWhollyInside(link, nav, name);
  }
  await expectNoSideScroll(page, 'landing');
  await page.screenshot(screen('mobile-landing-top-390'));

  await nav.getByRole('link', { name: 'Preços', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Escolha seu plano' })).toBeInViewport();
  await expect(page.locator('#precos')).toBeInViewport();
  await expect(page).toHaveURL(/#precos$/);
  // Not hidden under the sticky header once the smooth scroll ends.
  await expect(async () => {
    const header = await page.getByRole('banner').boundingBox();
    const heading = await page.getByRole('heading', { name: 'Escolha seu plano' }).boundingBox();
    expect(header && heading && heading.y >= header.y + header.height).toBe(true);
  }).toPass({ timeout: 5_000 });
});

test('header: Nova Campanha shows a label at 390 px, is named in full and opens its dialog', async ({ page }) => {
  await login(page, ADMIN.username, ADMIN.password);
  const header = page.getByRole('banner');
  const button = header.getByRole('button', { name: 'Nova Campanha', exact: true });
  await expect(button).toBeVisible();
  await expect(button.getByText('Nova', { exact: true })).toBeVisible();
  await expectWhollyInside(button, header, 'Nova Campanha');
  await expect(header.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  await page.screenshot({
    path: 'e2e/screenshots/mobile-header-390.png',
    clip: { x: 0, y: 0, width: 390, height: 64 },
  });

  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Criar Campanha' })).toBeVisible();
  await expectNoSideScroll(page, 'Nova Campanha dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('dashboard: the tab bar hints that it scrolls, and every tab is reached by touch and by keyboard', async ({
  page,
}) => {
  await login(page, ADMIN.username, ADMIN.password);
  const tablist = page.getByRole('tablist', { name: 'Seções do dashboard' });
  await expect(tablist).toBeVisible();
  await expectNoSideScroll(page, 'dashboard');
  // More tabs behind the right edge: a visible hint there, none on the left yet.
  await expect(page.getByTestId('tabs-scroll-end')).toBeVisible();
  await expect(page.getByTestId('tabs-scroll-start')).toHaveCount(0);
  await page.screenshot(screen('mobile-dashboard-tabs-390'));

  // The hint scrolls the bar.
  await page.getByTestId('tabs-scroll-end').click();
  await expect(page.getByTestId('tabs-scroll-start')).toBeVisible();

  const last = tablist.getByRole('tab', { name: 'Verificação' });
  await last.scrollIntoViewIfNeeded();
  await last.click();
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/tab=verification/);
  await expect(page.getByText('Verificação de WhatsApp', { exact: true })).toBeVisible();
  await expect(async () => expectWhollyInside(last, tablist, 'Verificação')).toPass({ timeout: 3_000 });
  await page.screenshot(screen('mobile-dashboard-last-tab-390'));

  // Keyboard: Radix's arrow keys move and activate, and the bar follows the focused tab.
  const tabs = tablist.getByRole('tab');
  await tabs.first().click();
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  const count = await tabs.count();
  for (let i = 1; i < count; i++) {
    await page.keyboard.press('ArrowRight');
    await expect(tabs.nth(i)).toBeFocused();
    await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
    await expect(async () => expectWhollyInside(tabs.nth(i), tablist, `tab ${i + 1}`)).toPass({ timeout: 3_000 });
  }

  // Opened from a link to the last tab, the bar starts scrolled to it.
  await page.goto('/dashboard?tab=verification');
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(async () => expectWhollyInside(last, tablist, 'Verificação from the URL')).toPass({
    timeout: 3_000,
  });

  await activateEveryTab(tablist, 'dashboard');
});

test('settings and admin: every tab is reached at 390 px', async ({ page }) => {
  await login(page, ADMIN.username, ADMIN.password);
  await page.goto('/settings');
  const settingsTabs = page.getByRole('tablist', { name: 'Seções das configurações' });
  await expect(settingsTabs).toBeVisible();
  await expect(page.getByTestId('tabs-scroll-end')).toBeVisible();
  await page.screenshot(screen('mobile-settings-tabs-390'));
  await activateEveryTab(settingsTabs, 'settings');
  await expectNoSideScroll(page, 'settings');

  await page.goto('/admin/users');
  const adminTabs = page.getByRole('tablist', { name: 'Filtrar usuários' });
  await expect(adminTabs).toBeVisible();
  await expect(adminTabs.getByRole('tab').first()).toContainText(/\d/);
  await expect(page.getByTestId('tabs-scroll-end')).toBeVisible();
  await page.screenshot(screen('mobile-admin-tabs-390'));
  await activateEveryTab(adminTabs, 'admin');
  await expectNoSideScroll(page, 'admin');
});

test('no screen scrolls sideways at 390 px', async ({ page }) => {
  test.setTimeout(120_000);
  for (const path of ['/', '/login', '/login?tab=register', '/demo', '/pagina-que-nao-existe']) {
    await page.goto(path);
    await page.waitForLoadState('load');
    await expect(page.locator('body')).not.toBeEmpty();
    await expectNoSideScroll(page, path);
  }

  await login(page, ADMIN.username, ADMIN.password);
  const pages = [
    '/dashboard',
    '/dashboard?tab=chatbot',
    '/dashboard?tab=whatsapp-api',
    '/dashboard?tab=analytics',
    '/dashboard?tab=verification',
    '/campaigns',
    '/chatbot',
    '/conversations',
    '/contacts',
    '/groups',
    '/reports',
    '/settings',
    '/settings?tab=notificacoes',
    '/settings?tab=whatsapp',
    '/settings?tab=seguranca',
    '/settings?tab=planos',
    '/admin/users',
  ];
  for (const path of pages) {
    await page.goto(path);
    await settled(page);
    await expectNoSideScroll(page, path);
  }
});

test('Conversas at 390 px: a customer takes a conversation over, hands it back and replies', async ({ page }) => {
  test.setTimeout(60_000);
  await signInCustomer(page, { prefix: 'celconversa', name: 'Célia Celular' });
  const saved = await postJson(page.request, '/api/bot-config', {
    autoReplies: [{ keyword: 'horário', response: 'Abrimos às 9h.' }],
  });
  expect(saved.ok()).toBe(true);
  await prepareSendingAccount(page, []);
  const from = '5521998765433';
  expect(
    (await postJson(page.request, '/api/whatsapp/simulator/inbound', { from, text: 'Qual o horário?' })).ok(),
  ).toBe(true);

  await page.goto(`/conversations?phone=${from}`);
  await expect(page.getByText('Abrimos às 9h.', { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText('Disponível apenas no desktop')).toHaveCount(0);
  const handoff = page.getByTestId('handoff-state');
  const takeOver = handoff.getByRole('button', { name: 'Assumir conversa' });
  await expect(takeOver).toBeEnabled();
  await expectTouchTarget(takeOver, 'Assumir conversa');
  await expectNoSideScroll(page, 'conversation');
  await page.screenshot(screen('mobile-conversation-390'));

  const detail = async () => (await (await page.request.get(`/api/conversations/${from}`)).json()).conversation;
  await takeOver.click();
  await expect(page.getByText('Você assumiu esta conversa: o chatbot fica em silêncio nela.').first()).toBeVisible();
  await expect.poll(async () => Boolean((await detail()).takenOverUntil)).toBe(true);
  const release = handoff.getByRole('button', { name: 'Devolver ao chatbot' });
  await expectTouchTarget(release, 'Devolver ao chatbot');
  await release.click();
  await expect(page.getByText('Conversa devolvida ao chatbot.').first()).toBeVisible();
  await expect.poll(async () => (await detail()).takenOverUntil).toBeNull();
  await expect(takeOver).toBeVisible();

  const reply = page.getByRole('form', { name: 'Responder' });
  await reply.getByPlaceholder('Escreva uma mensagem...').fill('Oi! Aqui é a Célia, respondendo do celular.');
  const send = reply.getByRole('button', { name: 'Enviar' });
  await expect(send).toBeEnabled();
  await expect(send).not.toHaveAttribute('aria-disabled', 'true');
  await expectTouchTarget(send, 'Enviar');
  await expectWhollyInside(send, reply, 'Enviar');
  await send.click();
  await expect(page.getByText('Oi! Aqui é a Célia, respondendo do celular.', { exact: true })).toBeVisible();
  await expect
    .poll(async () => {
      const sent = await (await page.request.get(`/api/conversations/${from}`)).json();
      return sent.messages.some((m: { source: string; text: string }) => m.source === 'manual');
    })
    .toBe(true);
  // Replying took the conversation over again.
  await expect(handoff.getByRole('button', { name: 'Devolver ao chatbot' })).toBeVisible();
  await expectNoSideScroll(page, 'conversation after the reply');
  await page.screenshot(screen('mobile-conversation-replied-390'));
});

test('Campanhas at 390 px: a customer creates a campaign and starts it', async ({ page }) => {
  test.setTimeout(60_000);
  await signInCustomer(page, { prefix: 'celcampanha', name: 'Caio Celular' });
  await prepareSendingAccount(page, [
    { name: 'Ana Souza', phone: '(21) 99876-5431' },
    { name: 'Bruno Lima', phone: '(11) 91234-5677' },
  ]);
  await page.goto('/campaigns');
  await settled(page);
  const create = page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first();
  await expect(create).not.toHaveAttribute('aria-disabled', 'true');
  await expectTouchTarget(create, 'Nova Campanha');
  await create.click();

  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await expectFitsScreen(dialog, 'Nova Campanha');
  await dialog.getByLabel('Nome da campanha').fill('Promoção do celular');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Oi {{primeiro_nome}}, temos ofertas para você!');
  await expect(dialog.getByTestId('campaign-preview-item').first()).toContainText(/Oi (Ana|Bruno), temos ofertas/);
  await expectNoSideScroll(page, 'Nova Campanha');
  await page.screenshot(screen('mobile-campaign-dialog-390'));
  const submit = dialog.getByRole('button', { name: 'Criar Campanha' });
  await submit.scrollIntoViewIfNeeded();
  await expect(submit).toBeInViewport();
  await expectTouchTargets(dialog, 'Nova Campanha');
  await submit.click();
  await expect(page.getByText('Campanha criada com sucesso.').first()).toBeVisible();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId('campaign-card').filter({ hasText: 'Promoção do celular' });
  await expectNoSideScroll(page, 'campaigns');
  await expectTouchTargets(card, 'campaign card');
  await card.getByRole('button', { name: /Enviar Campanha/ }).click();
  const confirm = page.getByRole('alertdialog');
  await expectFitsScreen(confirm, 'send confirmation');
  await expect(confirm).toContainText('2 destinatários');
  await expectTouchTargets(confirm, 'send confirmation');
  await page.screenshot(screen('mobile-campaign-confirm-390'));
  await confirm.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Campanha enviada com sucesso.').first()).toBeVisible();
  await expect(card.getByText('Concluída')).toBeVisible({ timeout: 30_000 });
  await expectNoSideScroll(page, 'campaigns after sending');
  await page.screenshot(screen('mobile-campaign-sent-390'));

  // 'Compor Nova Mensagem' (the saved messages on the same page) opens and fits too.
  await page.getByRole('button', { name: 'Compor Mensagem' }).click();
  const compose = page.getByRole('dialog', { name: 'Compor Nova Mensagem' });
  await expectFitsScreen(compose, 'Compor Nova Mensagem');
  await expectTouchTargets(compose, 'Compor Nova Mensagem');
  await page.screenshot(screen('mobile-compose-message-390'));
  await compose.getByRole('button', { name: 'Cancelar' }).click();
  await expect(compose).toBeHidden();
});

test('Chatbot at 390 px: a customer adds, edits, pauses and deletes a rule, and opens the bot settings', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signInCustomer(page, { prefix: 'celbot', name: 'Beatriz Celular' });
  await page.goto('/chatbot');
  await settled(page);
  await expect(page.getByText('Nenhuma mensagem configurada')).toBeVisible();
  await expectNoSideScroll(page, 'chatbot');
  const rules = async () =>
    (await (await page.request.get('/api/bot-config')).json()).autoReplies.map(
      (r: { trigger: string; response: string; isActive: boolean }) => [r.trigger, r.response, r.isActive],
    );

  const first = page.getByRole('button', { name: 'Criar Primeira Mensagem' }).first();
  await expectTouchTarget(first, 'Criar Primeira Mensagem');
  await first.click();
  const dialog = page.getByRole('dialog', { name: 'Criar Nova Mensagem Automática' });
  await expectFitsScreen(dialog, 'Criar Nova Mensagem Automática');
  await dialog.getByLabel('Palavra-chave').first().fill('cardápio');
  await dialog.getByLabel('Tipo de mensagem').selectOption({ label: 'Interativa' });
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Veja o cardápio de hoje.');
  await dialog.getByLabel('Texto do botão').fill('Ver cardápio');
  await dialog.getByLabel('Ação do botão').selectOption({ label: 'Link' });
  await dialog.getByLabel('Link', { exact: true }).fill('https://exemplo.com.br/cardapio');
  await dialog.getByRole('button', { name: 'Adicionar botão' }).click();
  await expect(dialog.getByText('Link → https://exemplo.com.br/cardapio')).toBeVisible();
  await expectFitsScreen(dialog, 'Criar Nova Mensagem Automática with a button');
  await expectNoSideScroll(page, 'Criar Nova Mensagem Automática');
  await expectTouchTargets(dialog, 'Criar Nova Mensagem Automática');
  await page.screenshot(screen('mobile-chatbot-new-rule-390'));
  await dialog.getByRole('button', { name: 'Adicionar Mensagem' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Mensagem adicionada com sucesso.').first()).toBeVisible();
  expect(await rules()).toEqual([['cardápio', 'Veja o cardápio de hoje.', true]]);

  const card = page.getByTestId('auto-message-card');
  await expectTouchTargets(card, 'rule card');
  await expectNoSideScroll(page, 'chatbot with a rule');
  await card.getByRole('button', { name: 'Editar a mensagem cardápio' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Mensagem Automática' });
  await expectFitsScreen(edit, 'Editar Mensagem Automática');
  await expect(edit.getByText('Link → https://exemplo.com.br/cardapio')).toBeVisible();
  await edit.getByLabel('Mensagem', { exact: true }).fill('Veja o cardápio de hoje e de amanhã.');
  await edit.getByRole('button', { name: 'Salvar Mensagem' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('Mensagem atualizada com sucesso.').first()).toBeVisible();
  expect(await rules()).toEqual([['cardápio', 'Veja o cardápio de hoje e de amanhã.', true]]);

  await card.getByRole('button', { name: 'Pausar a mensagem cardápio' }).click();
  await expect(card.getByText('Pausada')).toBeVisible();
  await expect.poll(rules).toEqual([['cardápio', 'Veja o cardápio de hoje e de amanhã.', false]]);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot(screen('mobile-chatbot-rule-390'));

  await card.getByRole('button', { name: 'Excluir a mensagem cardápio' }).click();
  const confirm = page.getByRole('alertdialog');
  await expectFitsScreen(confirm, 'delete confirmation');
  await expectTouchTargets(confirm, 'delete confirmation');
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Mensagem removida com sucesso.').first()).toBeVisible();
  expect(await rules()).toEqual([]);

  // 'Configurar Chatbot' fits too, and its switch says the state it is in.
  await page.getByRole('button', { name: 'Configurar Chatbot' }).click();
  const config = page.getByRole('dialog', { name: 'Configurar Chatbot' });
  await expectFitsScreen(config, 'Configurar Chatbot');
  const bot = config.getByRole('switch', { name: 'Bot ativo' });
  await expect(bot).toHaveAccessibleDescription('Ligado: o bot responde automaticamente às mensagens.');
  await expectNoSideScroll(page, 'Configurar Chatbot');
  await page.screenshot(screen('mobile-chatbot-config-390'));
  await config.getByRole('button', { name: 'Cancelar' }).click();
  await expect(config).toBeHidden();
});
