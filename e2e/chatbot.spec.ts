import type { Page } from '@playwright/test';
import { expect, postJson, shot, signInCustomer, test } from './fixtures';

const botConfig = async (page: Page) => (await page.request.get('/api/bot-config')).json();

test('the automatic messages manager keeps changes local until "Salvar Configurações"', async ({ page }) => {
  await signInCustomer(page, { prefix: 'chatbot', name: 'Carla Chatbot' });
  await page.goto('/chatbot');
  await expect(page.getByText('Nenhuma mensagem configurada')).toBeVisible();
  await page.getByRole('button', { name: 'Criar Primeira Mensagem' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Criar Nova Mensagem Automática' });
  await dialog.getByLabel('Palavra-chave').first().fill('horário');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Abrimos às 9h, de segunda a sexta.');
  await dialog.getByRole('button', { name: 'Adicionar Mensagem' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Abrimos às 9h, de segunda a sexta.').first()).toBeVisible();
  // Nothing reaches the server before the save.
  expect((await botConfig(page)).autoReplies).toEqual([]);
  await page.getByRole('button', { name: 'Salvar Configurações' }).click();
  await expect
    .poll(async () => (await botConfig(page)).autoReplies.map((r: { trigger: string }) => r.trigger))
    .toEqual(['horário']);
  await page.screenshot(shot('chatbot-manager-1366'));
});

test('a conversation answered by the bot, then by hand from "Conversas"', async ({ page }) => {
  await signInCustomer(page, { prefix: 'conversas', name: 'Caio Conversas' });
  const saved = await postJson(page.request, '/api/bot-config', {
    autoReplies: [{ keyword: 'horário', response: 'Abrimos às 9h.' }],
  });
  expect(saved.ok()).toBe(true);
  expect((await postJson(page.request, '/api/whatsapp/connect', {})).ok()).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get('/api/whatsapp-session')).json()).isConnected, { timeout: 15_000 })
    .toBe(true);
  const from = '5521998765431';
  expect(
    (await postJson(page.request, '/api/whatsapp/simulator/inbound', { from, text: 'Qual o horário?' })).ok(),
  ).toBe(true);
  await page.goto(`/conversations?phone=${from}`);
  await expect(page.getByText('Abrimos às 9h.').first()).toBeVisible({ timeout: 10_000 });
  // The contact the first message created has no name (its number stands in): a person icon, not '+5'.
  await expect(page.getByTestId('avatar-icon')).toBeVisible();
  await expect(page.getByText('+5', { exact: true })).toHaveCount(0);
  await page.getByPlaceholder('Escreva uma mensagem...').fill('Olá! Aqui é o Caio, posso ajudar?');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect
    .poll(async () => {
      const detail = await (await page.request.get(`/api/conversations/${from}`)).json();
      return {
        manual: detail.messages.some((m: { source: string }) => m.source === 'manual'),
        taken: !!detail.conversation.takenOverUntil,
      };
    })
    .toEqual({ manual: true, taken: true });
  await expect(page.getByText('Olá! Aqui é o Caio, posso ajudar?').first()).toBeVisible();
  await page.screenshot(shot('conversation-by-hand-1366'));
});
