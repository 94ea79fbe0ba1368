import { expect, postJson, prepareSendingAccount, shot, signInCustomer, test } from './fixtures';

/**
 * Quick replies: kept in Configurações → WhatsApp, used in Conversas by typing `/` — the list
 * narrows as the shortcut is typed, the keyboard picks one, and the contact's name is filled in.
 */
test('an owner keeps a quick reply in Configurações and answers with it in Conversas by typing /', async ({ page }) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'rapidas', name: 'Lia Rápida' });
  await prepareSendingAccount(page, [{ name: 'Bruno Costa', phone: '(21) 99876-5522' }]);
  const phone = '5521998765522';
  expect((await postJson(page.request, '/api/whatsapp/simulator/inbound', { from: phone, text: 'Oi' })).ok()).toBe(
    true,
  );
  // A second reply, so the list has to narrow as the shortcut is typed.
  expect(
    (await postJson(page.request, '/api/quick-replies', { shortcut: 'pix', text: 'Nossa chave Pix é o CNPJ.' })).ok(),
  ).toBe(true);

  await page.goto('/settings');
  await page.getByRole('tab', { name: 'WhatsApp' }).click();
  await page.getByRole('button', { name: /Nova Resposta/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Atalho').fill('/Boas-Vindas');
  await dialog.getByLabel('Texto').fill('Olá, {{primeiro_nome}}! Em que posso ajudar?');
  await dialog.getByRole('button', { name: 'Criar Resposta' }).click();
  await expect(page.getByText('/boas-vindas')).toBeVisible();
  await page.screenshot(shot('quick-replies-settings-1366'));

  await page.goto(`/conversations?phone=${phone}`);
  const box = page.getByPlaceholder('Escreva uma mensagem...');
  await box.click();
  await box.pressSequentially('/');
  const list = page.getByRole('listbox');
  await expect(list.getByRole('option')).toHaveCount(2);
  await box.pressSequentially('bo');
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option')).toContainText('/boas-vindas');
  await page.screenshot(shot('quick-replies-picker-1366'));
  await box.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(box).toHaveValue('Olá, Bruno! Em que posso ajudar?');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(
    page.getByTestId('conversation-message').filter({ hasText: 'Olá, Bruno! Em que posso ajudar?' }),
  ).toContainText('Lia Rápida');
});
