import { expect, expectOk, postJson, prepareSendingAccount, shot, signInCustomer, TINY_PDF, test } from './fixtures';

/** A 1×1 transparent PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const base64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

/** A few bytes labelled as an Ogg voice note: the page shows a player, which loads nothing until played. */
const OGG_BYTES = Buffer.from('OggS\0\u0002\0\0\0\0\0\0\0\0', 'latin1').toString('base64');

/** Two contacts of the simulator (on WhatsApp: their numbers do not end in 0). */
const ANA = '5521998776611';
const BETO = '5521998776621';

/**
 * 'Conversas' shows what a contact sends besides text: a photo, a voice note, a location, a contact
 * card, a kind it does not support, and a document to download, named in the list by its file.
 */
test('received files, locations and contact cards show in Conversas, and a document names its conversation', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInCustomer(page, { prefix: 'midias', name: 'Mara Mídias' });
  await prepareSendingAccount(page, []);
  // No welcome message nor reply from the bot: each conversation's last message stays the contact's.
  await expectOk(postJson(page.request, '/api/bot-config', { isEnabled: false }), 'bot off');

  const inbound = (label: string, body: Record<string, unknown>) =>
    expectOk(postJson(page.request, '/api/whatsapp/simulator/inbound', body), label);
  await inbound('image', {
    from: ANA,
    text: 'Olha a vitrine',
    media: { kind: 'image', mimeType: 'image/png', fileName: 'vitrine.png', dataBase64: PNG_1X1 },
  });
  await inbound('voice note', {
    from: ANA,
    media: { kind: 'audio', mimeType: 'audio/ogg', dataBase64: OGG_BYTES, durationSeconds: 3, voice: true },
  });
  await inbound('location', {
    from: ANA,
    location: { latitude: -22.9068, longitude: -43.1729, name: 'Loja Centro', address: 'Rua do Ouvidor, 50' },
  });
  await inbound('contact card', { from: ANA, contactCard: { name: 'Carla Fornecedora', phone: '5521998761234' } });
  await inbound('unsupported', { from: ANA, unsupported: 'poll' });
  await inbound('document', {
    from: BETO,
    media: { kind: 'document', mimeType: 'application/pdf', fileName: 'catalogo.pdf', dataBase64: base64(TINY_PDF) },
  });

  // The list names the document's conversation by its file (the server's preview).
  await page.goto('/conversations');
  const items = page.getByTestId('conversation-item');
  await expect(items).toHaveCount(2, { timeout: 15_000 });
  await expect(items.filter({ hasText: '📎 catalogo.pdf' })).toHaveCount(1);

  // The document: its name, and a link that downloads it.
  await page.goto(`/conversations?phone=${BETO}`);
  const pdf = page.getByTestId('message-document');
  await expect(pdf).toBeVisible({ timeout: 15_000 });
  await expect(pdf).toContainText('catalogo.pdf');
  const download = pdf.getByRole('link', { name: /^Baixar/ });
  await expect(download).toBeVisible();
  await expect(download).toHaveAttribute('download', 'catalogo.pdf');
  const file = await page.request.get((await download.getAttribute('href')) as string);
  expect(file.ok(), 'the document downloads').toBe(true);
  expect((await file.body()).subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');

  await page.goto(`/conversations?phone=${ANA}`);
  const bubbles = page.getByTestId('conversation-message');

  // The photo, inline, with its caption under it; a click opens it in a new tab.
  const photo = bubbles.filter({ hasText: 'Olha a vitrine' });
  const image = photo.getByRole('img', { name: 'vitrine.png' });
  await expect(image).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await expect(photo.locator('a:has(img)')).toHaveAttribute('target', '_blank');

  // The voice note: a player, named as one, with its length.
  const voice = page.getByTestId('message-audio');
  await expect(voice).toBeVisible();
  await expect(voice).toContainText('Mensagem de voz · 0:03');
  await expect(voice.locator('audio')).toBeVisible();

  // The location: its name and address, and the map.
  const location = page.getByTestId('message-location');
  await expect(location).toBeVisible();
  await expect(location).toContainText('Loja Centro');
  await expect(location).toContainText('Rua do Ouvidor, 50');
  const map = location.getByRole('link', { name: 'Abrir no mapa' });
  await expect(map).toBeVisible();
  await expect(map).toHaveAttribute('href', /-22\.9068,-43\.1729/);
  await expect(map).toHaveAttribute('target', '_blank');

  // The contact card: the name, the number formatted, and a way to save it.
  const card = page.getByTestId('message-contact-card');
  await expect(card).toBeVisible();
  await expect(card).toContainText('Carla Fornecedora');
  await expect(card).toContainText('+55 21 99876-1234');
  const save = card.getByRole('link', { name: 'Salvar contato' });
  await expect(save).toBeVisible();
  await expect(save).toHaveAttribute('href', '/contacts?novo=5521998761234&nome=Carla+Fornecedora');

  // A kind the page does not show says so, as a note.
  await expect(page.getByTestId('message-unsupported')).toContainText('Mensagem de tipo não suportado');
  await page.screenshot(shot('conversation-media-1366'));

  // At 390 px every card fits: no sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot(shot('conversation-media-390'));
});
