import { expect, postJson, shot, signInCustomer, test } from './fixtures';

test('"Conversas" shows the menu the contact got and the option their "3" chose', async ({ page }) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'convbtn', name: 'Bianca Botões' });
  const saved = await postJson(page.request, '/api/bot-config', {
    autoReplies: [
      {
        trigger: 'suporte',
        response: 'Nosso suporte atende de segunda a sexta, das 9h às 18h.',
        type: 'interactive',
        buttons: [
          { text: 'Ligar para suporte', type: 'phone', value: '5511999999999' },
          { text: 'Central de ajuda', type: 'url', value: 'https://www.exemplo.com.br/ajuda' },
          { text: 'Falar com atendente', type: 'quick_reply', value: 'atendente' },
        ],
      },
    ],
  });
  expect(saved.ok()).toBe(true);
  expect((await postJson(page.request, '/api/whatsapp/connect', {})).ok()).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get('/api/whatsapp-session')).json()).isConnected, { timeout: 15_000 })
    .toBe(true);
  const from = '5521998765432';
  const say = (text: string) => postJson(page.request, '/api/whatsapp/simulator/inbound', { from, text });
  expect((await say('suporte')).ok()).toBe(true);
  // The menu is out before the answer comes (until the bot has recorded the message, the
  // conversation does not exist yet: 404).
  await expect
    .poll(async () => (await (await page.request.get(`/api/conversations/${from}`)).json()).messages?.length ?? 0)
    .toBe(2);
  expect((await say('3')).ok()).toBe(true);

  await page.goto(`/conversations?phone=${from}`);
  const options = page.getByRole('list', { name: 'Menu enviado (o cliente responde com o número)' });
  await expect(options).toBeVisible({ timeout: 15_000 });
  await expect(options.getByRole('listitem')).toHaveText([
    '1.Ligar para suporte: +55 11 99999-9999',
    '2.Central de ajuda: https://www.exemplo.com.br/ajuda',
    '3.Falar com atendente',
  ]);
  // The contact's "3", with the option it chose; the bot hands the conversation to a person.
  await expect(page.getByText('3 — Falar com atendente')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Vou chamar um atendente').first()).toBeVisible();
  await expect(page.getByTestId('handoff-state')).toContainText('Você está atendendo');
  await page.screenshot(shot('conversation-buttons-1366'));
});
