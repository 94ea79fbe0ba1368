import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { teamMsg } from '../contract/team';
import {
  expect,
  expectOk,
  joinAsMember,
  login,
  mailTo,
  postJson,
  shot,
  signInCustomer,
  test,
  unique,
} from './fixtures';

async function expectNoSeriousAxe(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

async function expectNoSideScroll(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what}: page width ${scrollWidth} > ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
}

/**
 * Equipe as an owner and the person they invite go through it: the owner invites an agent and
 * reads the one-time link off the page; in another browser the agent opens it, picks a username and
 * a password, signs in and works in Conversas and Contatos, never shown what the role may not use
 * and never answered 403; once the owner deactivates them, the agent's next step lands on /login.
 */
test('an owner invites an agent, who joins, sees only what the role allows, until deactivated', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInCustomer(page, { prefix: 'dono', name: 'Olga Dona', plan: 'professional' });
  await expectOk(postJson(page.request, '/api/contacts', { name: 'Carlos Cliente', phone: '11987654321' }), 'contact');

  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  await menu.getByRole('link', { name: 'Equipe' }).click();
  await expect(page).toHaveURL(/\/equipe$/);
  await expect(page.getByRole('heading', { name: 'Equipe', level: 1 })).toBeVisible();
  await expect(page.getByTestId('team-places')).toHaveText('1 de 5 pessoas no seu plano');
  const ownerRow = page.getByTestId('team-member').filter({ hasText: 'Olga Dona' });
  await expect(ownerRow.getByTestId('member-role')).toHaveText('Proprietário');
  await expect(ownerRow).toContainText('(você)');
  // Neither the owner's row nor one's own can be changed: no control there.
  await expect(ownerRow.getByRole('button')).toHaveCount(0);
  await expect(ownerRow.getByRole('combobox')).toHaveCount(0);
  await expect(page.getByText('Ninguém mais na equipe ainda')).toBeVisible();

  // The invitation: the contract's rules first, then the link to copy.
  await page.getByRole('button', { name: 'Convidar membro' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toHaveAccessibleName(teamMsg.inviteTitle);
  await dialog.getByRole('button', { name: teamMsg.inviteSubmit }).click();
  await expect(dialog.getByText('Email inválido').first()).toBeVisible();
  const agentName = 'Ana Atendente';
  const agentEmail = `${unique('ana')}@example.com`;
  await dialog.getByLabel('Nome').fill(agentName);
  await dialog.getByLabel('Email').fill(agentEmail);
  await dialog.getByRole('radio', { name: 'Gerente' }).check();
  await dialog.getByRole('radio', { name: 'Atendente' }).check();
  await expect(dialog.getByText('Conversas, contatos (ver e editar)')).toBeVisible();
  await page.screenshot(shot('team-invite-1366'));
  await dialog.getByRole('button', { name: teamMsg.inviteSubmit }).click();
  await expect(dialog).toHaveAccessibleName('Convite criado');
  await expect(dialog.getByRole('status')).toHaveText(teamMsg.invited);
  const inviteUrl = (await dialog.getByTestId('invite-url').innerText()).trim();
  expect(inviteUrl).toMatch(/\/convite\?token=[\w-]+$/);
  // Checked once the dialog's opening animation is over (colours mid-fade are not the page's).
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  await expectNoSeriousAxe(page);
  await dialog.getByRole('button', { name: 'Copiar link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(inviteUrl);
  await page.screenshot(shot('team-invite-link-1366'));
  // Escape closes the 'Copiado!' toast first, then the dialog.
  await expect(async () => {
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden({ timeout: 500 });
  }).toPass({ timeout: 5_000 });

  // The e-mail carries the same link; the invitation waits in the list and takes a place.
  const mail = await mailTo(agentEmail, 'Convite para a equipe de Olga Dona');
  expect(mail.text).toContain(inviteUrl);
  const invitation = page.getByTestId('team-invitation').filter({ hasText: agentName });
  await expect(invitation).toContainText('Atendente');
  await expect(invitation.getByRole('button', { name: `Cancelar convite de ${agentName}` })).toBeVisible();
  await expect(page.getByTestId('team-places')).toHaveText('2 de 5 pessoas no seu plano');

  // The invitee's own browser: every answer an error is recorded, and so is every console error.
  const baseURL = test.info().project.use.baseURL;
  const agentContext = await browser.newContext({ baseURL, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  const agent = await agentContext.newPage();
  const agentErrors: string[] = [];
  const refused: string[] = [];
  agent.on('console', (m) => {
    if (m.type() === 'error' && !/status of 401/.test(m.text())) agentErrors.push(m.text());
  });
  agent.on('pageerror', (e) => agentErrors.push(String(e)));
  agent.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400 && r.status() !== 401) {
      refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
    }
  });

  // The link names the server's public address; the same path on the test's address.
  const { pathname, search } = new URL(inviteUrl);
  await agent.goto(`${pathname}${search}`);
  await expect(agent.getByRole('heading', { name: teamMsg.acceptTitle })).toBeVisible();
  await expect(agent.getByTestId('invitation-summary')).toHaveText(
    'Você foi convidado para a equipe de Olga Dona como atendente.',
  );
  await expect(agent.getByText(agentEmail)).toBeVisible();
  await agent.screenshot(shot('invitation-1366'));
  await expectNoSeriousAxe(agent);
  await agent.setViewportSize({ width: 390, height: 844 });
  await expectNoSideScroll(agent, 'invitation page');
  await agent.screenshot(shot('invitation-390'));
  await agent.setViewportSize({ width: 1366, height: 850 });

  const username = unique('ana.');
  await agent.getByLabel('Nome de usuário').fill(username);
  await agent.getByLabel('Senha', { exact: true }).fill('senha-da-ana');
  await agent.getByLabel('Confirmar senha').fill('outra-senha');
  await agent.getByRole('button', { name: teamMsg.acceptSubmit }).click();
  await expect(agent.getByText('As senhas não coincidem')).toBeVisible();
  await agent.getByLabel('Confirmar senha').fill('senha-da-ana');
  await agent.getByRole('button', { name: teamMsg.acceptSubmit }).click();
  await agent.waitForURL('**/login?convite=1');
  await expect(agent.getByRole('status').filter({ hasText: teamMsg.accepted })).toBeVisible();

  await login(agent, username, 'senha-da-ana');
  await expect(agent.getByText('Você está na equipe de Olga Dona como atendente.')).toBeVisible();
  const agentMenu = agent.getByRole('navigation', { name: 'Menu principal' });
  await expect(agentMenu.getByRole('link', { name: 'Conversas' })).toBeVisible();
  await expect(agentMenu.getByRole('link', { name: 'Contatos' })).toBeVisible();
  for (const hidden of ['Números', 'Chatbot', 'Equipe']) {
    await expect(agentMenu.getByRole('link', { name: hidden })).toHaveCount(0);
  }
  await expect(agent.getByRole('button', { name: /Nova Campanha/ })).toHaveCount(0);
  await expect(agent.getByRole('tab')).toHaveText(['Visão Geral', 'Analytics']);
  await expect(agent.locator('main .animate-pulse')).toHaveCount(0, { timeout: 10_000 });
  await agent.screenshot(shot('dashboard-agent-1366'));

  await agentMenu.getByRole('link', { name: 'Conversas' }).click();
  await expect(agent.getByRole('heading', { name: 'Conversas', level: 2 })).toBeVisible();

  await agentMenu.getByRole('link', { name: 'Contatos' }).click();
  const contact = agent.getByTestId('contact-row').filter({ hasText: 'Carlos Cliente' });
  await expect(contact.getByRole('button', { name: 'Editar Carlos Cliente' })).toBeVisible();
  await expect(contact.getByRole('button', { name: 'Excluir Carlos Cliente' })).toHaveCount(0);
  await expect(contact.getByRole('checkbox')).toHaveCount(0);
  await expect(agent.getByRole('button', { name: 'Novo Contato' })).toBeVisible();
  await expect(agent.getByRole('button', { name: 'Importar' })).toHaveCount(0);

  await agentMenu.getByRole('link', { name: 'Campanhas' }).click();
  await expect(agent.getByText('Nenhuma campanha criada ainda')).toBeVisible();
  await expect(agent.getByRole('button', { name: 'Nova Mensagem' })).toHaveCount(0);
  await agentMenu.getByRole('link', { name: 'Grupos' }).click();
  await expect(agent.getByText('Nenhum grupo cadastrado')).toBeVisible();
  await expect(agent.getByRole('button', { name: /Sincronizar grupos|Novo Grupo/ })).toHaveCount(0);
  await agentMenu.getByRole('link', { name: 'Relatórios' }).click();
  await expect(agent.getByRole('heading', { name: 'Relatório do período' })).toBeVisible();
  await agentMenu.getByRole('link', { name: 'Configurações' }).click();
  await expect(agent.getByRole('tab')).toHaveText(['Perfil', 'Segurança']);
  await expect(agent.getByRole('heading', { name: 'Restaurar backup' })).toHaveCount(0);

  // A page the role may not open, typed in: the dashboard instead.
  for (const path of ['/numeros', '/chatbot', '/equipe']) {
    await agent.goto(path);
    await expect(agent).toHaveURL(/\/dashboard$/);
    await expect(agent.getByRole('heading', { name: /Olá, Ana!/ })).toBeVisible();
  }
  // A dashboard tab of the managers' opens the overview.
  await agent.goto('/dashboard?tab=chatbot');
  await expect(agent.getByRole('tab', { name: 'Visão Geral' })).toHaveAttribute('aria-selected', 'true');
  await expect(agent.locator('main .animate-pulse')).toHaveCount(0, { timeout: 10_000 });
  expect(refused, 'answers refused to the agent').toEqual([]);
  expect(agentErrors, 'console errors of the agent').toEqual([]);

  // Back on the owner's page: the agent is a member now, seen a moment ago.
  await page.reload();
  const agentRow = page.getByTestId('team-member').filter({ hasText: agentName });
  await expect(agentRow.getByTestId('member-role')).toHaveText('Atendente');
  await expect(agentRow).toContainText(`@${username}`);
  await expect(agentRow).toContainText('Visto por último agora');
  await expect(page.getByTestId('team-invitation')).toHaveCount(0);
  await expect(page.getByTestId('team-places')).toHaveText('2 de 5 pessoas no seu plano');
  await expect(agentRow.getByLabel(`Papel de ${agentName}`)).toHaveValue('agent');
  await page.screenshot(shot('team-1366'));
  await expectNoSeriousAxe(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(agentRow.getByRole('button', { name: `Desativar ${agentName}` })).toBeVisible();
  await expectNoSideScroll(page, 'Equipe');
  await page.screenshot(shot('team-390'));
  await page.setViewportSize({ width: 1366, height: 850 });

  await agentRow.getByRole('button', { name: `Desativar ${agentName}` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Desativar ${agentName}` });
  await confirm.getByRole('button', { name: 'Desativar' }).click();
  await expect(confirm).toBeHidden();
  await expect(agentRow.getByTestId('member-status')).toHaveText('Inativo');
  await expect(agentRow.getByRole('button', { name: `Reativar ${agentName}` })).toBeVisible();

  // The agent's sessions ended with it: the next page they open (or the next poll of the page they
  // are on) lands on the login, which refuses them.
  await agent.goto('/contacts');
  await agent.waitForURL('**/login');
  await agent.getByLabel('Usuário ou e-mail').fill(username);
  await agent.getByLabel('Senha', { exact: true }).fill('senha-da-ana');
  await agent.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(agent.getByText(teamMsg.memberInactive).first()).toBeVisible();
  expect(
    refused.filter((r) => r !== '403 POST /api/auth/login'),
    'answers refused to the agent',
  ).toEqual([]);
  expect(
    agentErrors.filter((e) => !/status of 403/.test(e)),
    'console errors of the agent',
  ).toEqual([]);
  await agentContext.close();
});

test('a manager runs the account like its owner, but for restoring a backup and the owner’s row', async ({
  page,
  browser,
}) => {
  await signInCustomer(page, { prefix: 'dona', name: 'Otília Dona', plan: 'professional' });
  const {
    page: manager,
    context,
    errors,
  } = await joinAsMember(browser, page, {
    name: 'Gil Gerente',
    prefix: 'gil',
    role: 'manager',
    password: 'senha-do-gil',
  });
  const menu = manager.getByRole('navigation', { name: 'Menu principal' });
  for (const label of ['Números', 'Chatbot', 'Equipe'])
    await expect(menu.getByRole('link', { name: label })).toBeVisible();
  await expect(manager.getByRole('button', { name: /Nova Campanha/ }).first()).toBeVisible();

  await menu.getByRole('link', { name: 'Equipe' }).click();
  const own = manager.getByTestId('team-member').filter({ hasText: 'Gil Gerente' });
  await expect(own).toContainText('(você)');
  await expect(own.getByTestId('member-role')).toHaveText('Gerente');
  await expect(own.getByRole('combobox')).toHaveCount(0);
  const owner = manager.getByTestId('team-member').filter({ hasText: 'Otília Dona' });
  await expect(owner.getByTestId('member-role')).toHaveText('Proprietário');
  await expect(owner.getByRole('button')).toHaveCount(0);
  await expect(manager.getByRole('button', { name: teamMsg.invite })).toBeEnabled();

  await menu.getByRole('link', { name: 'Configurações' }).click();
  await expect(manager.getByRole('tab')).toHaveText(['Perfil', 'Notificações', 'WhatsApp', 'Segurança', 'Planos']);
  await expect(manager.getByLabel('Nome', { exact: true })).toHaveValue('Gil Gerente');
  await expect(manager.getByText('Restaurar backup')).toHaveCount(0);
  expect(errors, 'console errors of the manager').toEqual([]);
  await context.close();

  // The owner keeps it.
  await page.goto('/settings');
  await expect(page.getByText('Restaurar backup').first()).toBeVisible();
});

test('a link that is unknown, spent or expired says so and leads to the login', async ({ page, consoleErrors }) => {
  await page.goto('/convite?token=nao-existe');
  await expect(page.getByRole('alert')).toHaveText(teamMsg.invitationInvalid);
  await page.getByRole('link', { name: 'Ir para o login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The 404 is the answer this step expects; any other console error still fails the test.
  const expected = consoleErrors.findIndex((e) => /status of 404/.test(e));
  expect(expected).toBeGreaterThanOrEqual(0);
  consoleErrors.splice(expected, 1);
});
