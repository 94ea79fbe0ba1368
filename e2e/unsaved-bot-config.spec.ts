import type { Page } from '@playwright/test';
import { expect, postJson, shot, signInCustomer, test } from './fixtures';

/** web/lib/use-unsaved-changes-guard.tsx */
const LEAVE_TITLE = 'Sair sem salvar?';
const LEAVE_TEXT = 'Você tem alterações não salvas. Se sair agora, elas serão perdidas.';

const botConfig = async (page: Page) => (await page.request.get('/api/bot-config')).json();

/** Whether a `beforeunload` listener would make the browser ask (it cancels the event). */
const beforeUnloadArmed = (page: Page) =>
  page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });

const menuLink = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('link', { name, exact: true }).first();

/** From the dashboard through the menu, so the back button stays inside the app. */
async function openChatbot(page: Page) {
  await menuLink(page, 'Chatbot').click();
  await expect(page).toHaveURL(/\/chatbot$/);
}

const toast = (page: Page, message: string) =>
  page
    .getByRole('region', { name: /^Notificações/, includeHidden: true })
    .getByRole('listitem', { includeHidden: true })
    .filter({ hasText: message });

test('an automatic message is kept as soon as it is added: nothing is left to lose, leaving is free', async ({
  page,
}) => {
  await signInCustomer(page, { prefix: 'unsaved', name: 'Úrsula Unsaved' });
  await openChatbot(page);
  await expect(page.getByText('Nenhuma mensagem configurada')).toBeVisible();
  await expect.poll(() => beforeUnloadArmed(page)).toBe(false);

  await page.getByRole('button', { name: 'Criar Primeira Mensagem' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Criar Nova Mensagem Automática' });
  await dialog.getByLabel('Palavra-chave').first().fill('entrega');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Entregamos em até 2 dias úteis.');
  await dialog.getByRole('button', { name: 'Adicionar Mensagem' }).click();
  await expect(dialog).toBeHidden();

  // One action: the server has it, and the toast of SPEC §8 says so.
  await expect(toast(page, 'Mensagem adicionada com sucesso.')).toBeVisible();
  expect((await botConfig(page)).autoReplies.map((r: { trigger: string }) => r.trigger)).toEqual(['entrega']);
  await expect(page.getByText('Alterações não salvas.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Salvar Configurações' })).toHaveCount(0);
  await expect.poll(() => beforeUnloadArmed(page)).toBe(false);
  await page.screenshot(shot('unsaved-bot-config-kept-1366'));

  await menuLink(page, 'Contatos').click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('alertdialog', { name: LEAVE_TITLE })).toHaveCount(0);
  await menuLink(page, 'Chatbot').click();
  await expect(page.getByText('Entregamos em até 2 dias úteis.').first()).toBeVisible();
});

test("'Configurar Chatbot' with edits: the browser's own prompt guards a reload; 'Sair sem salvar' drops them", async ({
  page,
}) => {
  await signInCustomer(page, { prefix: 'unsaved2', name: 'Ulisses Unsaved' });
  await openChatbot(page);
  await page.getByRole('button', { name: 'Configurar Chatbot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configurar Chatbot' });
  const welcome = dialog.getByLabel('Mensagem de boas-vindas');
  await welcome.fill('Aceitamos Pix.');

  // A reload meets the browser's beforeunload prompt (dismissed: the page stays with the edit).
  const prompts: string[] = [];
  page.on('dialog', (d) => {
    prompts.push(d.type());
    void d.dismiss();
  });
  await welcome.click(); // a user gesture, which Chromium requires
  await page.evaluate(() => {
    window.location.reload();
  });
  await expect.poll(() => prompts).toEqual(['beforeunload']);
  await expect(welcome).toHaveValue('Aceitamos Pix.');

  await page.goBack();
  const leave = page.getByRole('alertdialog', { name: LEAVE_TITLE });
  await leave.getByRole('button', { name: 'Sair sem salvar' }).click();
  await expect(page).not.toHaveURL(/\/chatbot$/);
  await expect.poll(() => beforeUnloadArmed(page)).toBe(false);
  expect((await botConfig(page)).welcomeMessage).toBe('');
});

test("'Configurar Chatbot' with edits: closing and leaving ask first; Cancelar discards", async ({ page }) => {
  await signInCustomer(page, { prefix: 'unsaved3', name: 'Úrsula Dialog' });
  expect((await postJson(page.request, '/api/bot-config', { welcomeMessage: 'Olá!' })).ok()).toBe(true);
  await openChatbot(page);
  await page.getByRole('button', { name: 'Configurar Chatbot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configurar Chatbot' });
  const welcome = dialog.getByLabel('Mensagem de boas-vindas');
  await expect(welcome).toHaveValue('Olá!');

  // Untouched: Escape closes at once.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(() => beforeUnloadArmed(page)).toBe(false);

  await page.getByRole('button', { name: 'Configurar Chatbot' }).click();
  await welcome.fill('Olá! Bem-vindo à loja.');
  await expect.poll(() => beforeUnloadArmed(page)).toBe(true);
  await page.keyboard.press('Escape');
  const confirm = page.getByRole('alertdialog', { name: LEAVE_TITLE });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('Você tem alterações não salvas na configuração do chatbot.');
  await confirm.getByRole('button', { name: 'Continuar editando' }).click();
  await expect(confirm).toBeHidden();
  await expect(welcome).toHaveValue('Olá! Bem-vindo à loja.');

  // The back button (the menu is behind the modal) asks as well.
  await page.goBack();
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText(LEAVE_TEXT);
  await confirm.getByRole('button', { name: 'Continuar editando' }).click();
  await expect(page).toHaveURL(/\/chatbot$/);
  await expect(welcome).toHaveValue('Olá! Bem-vindo à loja.');

  // Typed back to what is stored: nothing to lose.
  await welcome.fill('Olá!');
  await expect.poll(() => beforeUnloadArmed(page)).toBe(false);
  await welcome.fill('Olá de novo!');
  // 'Sair sem salvar' from the close prompt drops the edit.
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await confirm.getByRole('button', { name: 'Sair sem salvar' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => beforeUnloadArmed(page)).toBe(false);
  expect((await botConfig(page)).welcomeMessage).toBe('Olá!');

  // Cancelar is an explicit discard.
  await page.getByRole('button', { name: 'Configurar Chatbot' }).click();
  await welcome.fill('Outra coisa');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();
  await expect(confirm).toHaveCount(0);
  expect((await botConfig(page)).welcomeMessage).toBe('Olá!');
});
