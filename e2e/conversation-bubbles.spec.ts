import { readFileSync } from 'node:fs';
import { expect, postJson, prepareSendingAccount, shot, signInCustomer, test } from './fixtures';

const JPEG = readFileSync(new URL('../web/public/og-image.jpg', import.meta.url));

/**
 * 'Conversas' shows a message as the contact got it: WhatsApp's formatting (no asterisks), the
 * campaign's image, and who wrote each outbound message — the campaign, the chatbot, the person.
 */
test('a campaign message keeps its formatting and image in Conversas, and each outbound bubble names its author', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'bolhas', name: 'Rita Bolhas' });
  await prepareSendingAccount(page, [{ name: 'Ana Bolha', phone: '(21) 99876-5511' }]);
  const saved = await postJson(page.request, '/api/bot-config', {
    autoReplies: [{ keyword: 'preço', response: 'Veja _hoje_ nossos preços.' }],
  });
  expect(saved.ok()).toBe(true);
  const baseURL = test.info().project.use.baseURL as string;
  const upload = await page.request.post('/api/uploads', {
    headers: { Origin: new URL(baseURL).origin },
    multipart: { file: { name: 'oferta.jpg', mimeType: 'image/jpeg', buffer: JPEG } },
  });
  expect(upload.ok(), 'upload').toBe(true);
  const created = await postJson(page.request, '/api/campaigns', {
    name: 'Black Friday',
    message: '*20% de desconto* só hoje',
    targetType: 'contacts',
    imageUrl: `upload:${(await upload.json()).id}`,
  });
  expect(created.ok(), 'campaign').toBe(true);
  const id = (await created.json()).id as string;
  expect((await postJson(page.request, `/api/campaigns/${id}/send`, {})).ok()).toBe(true);
  const phone = '5521998765511';
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/conversations/${phone}`)).json()).messages ?? []).some(
          (m: { source: string }) => m.source === 'campaign',
        ),
      { timeout: 20_000 },
    )
    .toBe(true);
  // The contact answers, and the bot replies.
  expect((await postJson(page.request, '/api/whatsapp/simulator/inbound', { from: phone, text: 'preço' })).ok()).toBe(
    true,
  );

  await page.goto(`/conversations?phone=${phone}`);
  const bubbles = page.getByTestId('conversation-message');
  const campaign = bubbles.filter({ hasText: 'Campanha: Black Friday' });
  await expect(campaign).toHaveCount(1, { timeout: 10_000 });
  await expect(campaign.getByTestId('whatsapp-text')).toHaveText('20% de desconto só hoje');
  await expect(campaign.locator('strong')).toHaveText('20% de desconto');
  await expect(campaign).not.toContainText('*');
  const image = campaign.getByRole('img', { name: 'Imagem da mensagem' });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);

  const bot = bubbles.filter({ hasText: 'Veja hoje nossos preços.' });
  await expect(bot).toContainText('Chatbot', { timeout: 10_000 });
  await expect(bot.locator('em')).toHaveText('hoje');
  // The list says the last message is the bot's, not 'Você'.
  await expect(page.getByText('Chatbot: Veja _hoje_ nossos preços.')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText(/^Você:/)).toHaveCount(0);

  await page.getByPlaceholder('Escreva uma mensagem...').fill('Posso ajudar?');
  await page.getByRole('button', { name: 'Enviar' }).click();
  const mine = bubbles.filter({ hasText: 'Posso ajudar?' });
  await expect(mine).toContainText('Rita Bolhas');
  await page.screenshot(shot('conversation-bubbles-1366'));
});
