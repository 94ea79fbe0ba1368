import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, postJson, shot, signInCustomer, test } from './fixtures';

/** A real image, so the browser can draw it (the server checks the bytes as well). */
const JPEG = readFileSync(new URL('../web/public/og-image.jpg', import.meta.url));

/** A contact without a name, as an import makes it (the contact form asks for a name). */
async function importNameless(page: Page, phone: string) {
  const baseURL = test.info().project.use.baseURL as string;
  const res = await page.request.post('/api/contacts/import', {
    headers: { Origin: new URL(baseURL).origin },
    multipart: {
      file: { name: 'sem-nome.csv', mimeType: 'text/csv', buffer: Buffer.from(`Nome;Telefone\n;${phone}\n`) },
    },
  });
  expect(res.ok(), 'import').toBe(true);
  expect((await res.json()).imported).toBe(1);
}

/** The image has loaded and has a size: it is drawn, not a broken-image icon. */
async function expectDrawn(image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
}

test('previews show WhatsApp formatting and the image, and who of the audience has no name', async ({ page }) => {
  // Three screens, an upload and several previews: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'previa', name: 'Paula Prévia' });
  expect((await postJson(page.request, '/api/contacts', { name: 'Ana Souza', phone: '(21) 99876-5431' })).ok()).toBe(
    true,
  );
  await importNameless(page, '11987650098');

  await page.goto('/campaigns');
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await expect(dialog.getByText('{{primeiro_nome|cliente}}').first()).toBeVisible();
  const message = dialog.getByLabel('Mensagem', { exact: true });
  const preview = dialog.getByTestId('campaign-preview');
  const ana = preview.getByTestId('campaign-preview-item').filter({ hasText: 'Ana Souza' });
  // Numbers are masked as the contacts list masks them (web/lib/mask.ts), never shown whole.
  const nameless = preview.getByTestId('campaign-preview-item').filter({ hasText: '+55 11 9••••••98' });

  // Bold as WhatsApp shows it: the asterisks gone, the text in bold.
  await message.fill('*50% OFF* só hoje, {{primeiro_nome}}!\n_Aproveite_ ~R$ 99~');
  await expect(ana.getByTestId('whatsapp-text')).toHaveText('50% OFF só hoje, Ana!\nAproveite R$ 99');
  await expect(ana.locator('strong')).toHaveText('50% OFF');
  expect(await ana.locator('strong').evaluate((el) => Number(getComputedStyle(el).fontWeight))).toBeGreaterThanOrEqual(
    600,
  );
  await expect(ana.locator('em')).toHaveText('Aproveite');
  await expect(ana.locator('s')).toHaveText('R$ 99');
  await expect(preview).not.toContainText('*');

  // A contact without a name: known by its number, nothing in place of the name, and the way out.
  await expect(nameless.getByTestId('whatsapp-text')).toHaveText('50% OFF só hoje, !\nAproveite R$ 99');
  const note = preview.getByTestId('campaign-preview-nameless');
  await expect(note).toContainText(
    '1 destinatário sem nome ficará sem o nome — defina um valor padrão: {{primeiro_nome|cliente}}',
  );
  await expect(note).toContainText('+55 11 9••••••98');
  await expect(preview).not.toContainText('98765-0098');
  await expect(ana).toContainText('+55 21 9••••••31');
  await expect(preview).not.toContainText('99876-5431');
  await message.fill('*50% OFF* só hoje, {{ primeiro_nome | cliente }}!');
  await expect(note).toContainText('1 destinatário sem nome receberá “cliente”.');
  await expect(nameless.getByTestId('whatsapp-text')).toHaveText('50% OFF só hoje, cliente!');
  await expect(ana.getByTestId('whatsapp-text')).toHaveText('50% OFF só hoje, Ana!');

  // The attached image shows above the text, in every bubble.
  await dialog
    .getByLabel('Escolher imagem')
    .setInputFiles({ name: 'oferta.jpg', mimeType: 'image/jpeg', buffer: JPEG });
  await expect(dialog.getByText('Imagem enviada')).toBeVisible();
  await expectDrawn(ana.getByRole('img', { name: 'Imagem da mensagem' }));
  await expectDrawn(nameless.getByRole('img', { name: 'Imagem da mensagem' }));
  const [image, text] = [
    await ana.getByTestId('message-image').boundingBox(),
    await ana.getByTestId('whatsapp-text').boundingBox(),
  ];
  expect(image && text && image.y + image.height <= text.y).toBe(true);
  await preview.scrollIntoViewIfNeeded();
  await page.screenshot(shot('message-preview-campaign-1366'));
  await preview.screenshot({ path: 'e2e/screenshots/message-preview-campaign-panel.png' });
  await page.keyboard.press('Escape');

  // Saved messages and the chatbot's automatic messages use the same renderer.
  const upload = await page.request.post('/api/uploads', {
    headers: { Origin: new URL(test.info().project.use.baseURL as string).origin },
    multipart: { file: { name: 'oferta.jpg', mimeType: 'image/jpeg', buffer: JPEG } },
  });
  expect(upload.ok(), 'upload').toBe(true);
  const saved = await postJson(page.request, '/api/messages', {
    title: 'Oferta relâmpago',
    content: '*Oferta* de _hoje_',
    hasImage: true,
    uploadId: (await upload.json()).id,
  });
  expect(saved.ok(), 'saved message').toBe(true);
  await page.reload();
  const item = page.getByRole('listitem').filter({ hasText: 'Oferta relâmpago' });
  await expect(item.getByTestId('whatsapp-text')).toHaveText('Oferta de hoje');
  await expect(item.locator('strong')).toHaveText('Oferta');
  await expectDrawn(item.getByRole('img', { name: 'Imagem da mensagem' }));
  await item.screenshot({ path: 'e2e/screenshots/message-preview-saved-message.png' });

  const bot = await postJson(page.request, '/api/bot-config', {
    autoReplies: [{ keyword: 'promo', response: '*Promoção* válida até _domingo_.' }],
  });
  expect(bot.ok(), 'bot config').toBe(true);
  await page.goto('/chatbot');
  const bubble = page.getByRole('figure', { name: 'Pré-visualização da resposta para "promo"' });
  await expect(bubble.getByTestId('whatsapp-text')).toHaveText('Promoção válida até domingo.');
  await expect(bubble.locator('strong')).toHaveText('Promoção');
  await bubble.scrollIntoViewIfNeeded();
  await page.screenshot({ ...shot('message-preview-chatbot-1366'), fullPage: false });
});
