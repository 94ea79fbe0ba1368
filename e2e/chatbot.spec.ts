import type { Page } from '@playwright/test';
import { expect, postJson, shot, signInCustomer, test } from './fixtures';

const botConfig = async (page: Page) => (await page.request.get('/api/bot-config')).json();

test('the automatic messages manager: add, edit, pause and delete, each kept at once', async ({ page }) => {
  test.setTimeout(60_000);
  await signInCustomer(page, { prefix: 'chatbot', name: 'Carla Chatbot' });
  await page.goto('/chatbot');
  const triggers = async () =>
    (await botConfig(page)).autoReplies.map((r: { trigger: string; response: string; isActive: boolean }) => [
      r.trigger,
      r.response,
      r.isActive,
    ]);
  await expect(page.getByText('Nenhuma mensagem configurada')).toBeVisible();
  await page.getByRole('button', { name: 'Criar Primeira Mensagem' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Criar Nova Mensagem Automática' });
  await dialog.getByLabel('Palavra-chave').first().fill('horário');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Abrimos às 9h, de segunda a sexta.');
  await dialog.getByRole('button', { name: 'Adicionar Mensagem' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Mensagem adicionada com sucesso.').first()).toBeVisible();
  expect(await triggers()).toEqual([['horário', 'Abrimos às 9h, de segunda a sexta.', true]]);
  await expect(page.getByRole('button', { name: 'Salvar Configurações' })).toHaveCount(0);

  // A second keyword that repeats the first (accents and case aside) is refused, and the dialog keeps it.
  await page.getByRole('button', { name: 'Nova Mensagem' }).click();
  await dialog.getByLabel('Palavra-chave').first().fill('HORARIO');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Outro texto');
  await dialog.getByRole('button', { name: 'Adicionar Mensagem' }).click();
  await expect(
    page.getByText('A palavra-chave "HORARIO" aparece em mais de uma resposta automática.').first(),
  ).toBeVisible();
  await expect(dialog.getByLabel('Palavra-chave').first()).toHaveValue('HORARIO');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();

  // Edit: the same form, filled with the rule; saved in its place.
  const card = page.getByTestId('auto-message-card');
  await card.getByRole('button', { name: 'Editar a mensagem horário' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Mensagem Automática' });
  await expect(edit.getByLabel('Palavra-chave').first()).toHaveValue('horário');
  await expect(edit.getByLabel('Mensagem', { exact: true })).toHaveValue('Abrimos às 9h, de segunda a sexta.');
  await edit.getByLabel('Mensagem', { exact: true }).fill('Abrimos às 8h, de segunda a sábado.');
  await edit.getByRole('button', { name: 'Salvar Mensagem' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('Mensagem atualizada com sucesso.').first()).toBeVisible();
  expect(await triggers()).toEqual([['horário', 'Abrimos às 8h, de segunda a sábado.', true]]);
  await expect(card.getByText('Abrimos às 8h, de segunda a sábado.')).toBeVisible();

  // Pause and activate.
  await card.getByRole('button', { name: 'Pausar a mensagem horário' }).click();
  await expect(card.getByText('Pausada')).toBeVisible();
  await expect.poll(triggers).toEqual([['horário', 'Abrimos às 8h, de segunda a sábado.', false]]);
  await card.getByRole('button', { name: 'Ativar a mensagem horário' }).click();
  await expect(card.getByText('Ativa', { exact: true })).toBeVisible();
  await expect.poll(triggers).toEqual([['horário', 'Abrimos às 8h, de segunda a sábado.', true]]);
  await page.screenshot(shot('chatbot-manager-1366'));

  // Delete asks first.
  await card.getByRole('button', { name: 'Excluir a mensagem horário' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('horário');
  await confirm.getByRole('button', { name: /Excluir/ }).click();
  await expect(page.getByText('Mensagem removida com sucesso.').first()).toBeVisible();
  await expect(page.getByText('Nenhuma mensagem configurada')).toBeVisible();
  expect(await triggers()).toEqual([]);
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

test('a location or contact card rule is previewed as WhatsApp shows it, not as text alone', async ({ page }) => {
  await signInCustomer(page, { prefix: 'botextras', name: 'Beto Extras' });
  const saved = await postJson(page.request, '/api/bot-config', {
    autoReplies: [
      {
        trigger: 'endereco',
        response: '',
        type: 'location',
        location: { latitude: -22.9068, longitude: -43.1729, name: 'Loja Centro', address: 'Rua A, 1' },
      },
      {
        trigger: 'vendas',
        response: 'Fale com a Ana',
        type: 'contact',
        contactCard: { name: 'Ana Vendas', phone: '(21) 99876-5432' },
      },
    ],
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  await page.goto('/chatbot');
  const cards = page.getByTestId('auto-message-card');
  await expect(cards).toHaveCount(2);
  const place = cards.nth(0).getByTestId('preview-location');
  await expect(place).toContainText('Loja Centro');
  await expect(place).toContainText('Rua A, 1');
  const card = cards.nth(1).getByTestId('preview-contact');
  await expect(card).toContainText('Ana Vendas');
  await expect(card).toContainText('21998765432');
  // The card's text goes with it; the location has none, so no empty bubble stands beside it.
  await expect(cards.nth(1).getByText('Fale com a Ana')).toBeVisible();
  await expect(cards.nth(0).getByText('…', { exact: true })).toHaveCount(0);
  await page.screenshot(shot('chatbot-extras-1366'));
});
