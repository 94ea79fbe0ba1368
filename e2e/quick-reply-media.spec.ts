import { expect, expectOk, postJson, prepareSendingAccount, shot, signInCustomer, TINY_PDF, test } from './fixtures';

/**
 * A quick reply with a file: kept in Configurações with its PDF, typed as /tabela in Conversas,
 * its text filled and its file attached, and both sent to the contact.
 */
test('a quick reply carries a file: made in Configurações, used with / in Conversas, sent with its text', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'rapida', name: 'Rita Rápida', plan: 'professional' });
  await prepareSendingAccount(page, [{ name: 'Davi Cliente', phone: '(21) 99876-5522' }]);
  const phone = '5521998765522';
  await expectOk(postJson(page.request, '/api/bot-config', { isEnabled: false }), 'bot off');
  await expectOk(postJson(page.request, '/api/whatsapp/simulator/inbound', { from: phone, text: 'Oi' }), 'inbound');

  await page.goto('/settings?tab=whatsapp');
  await page.getByRole('button', { name: 'Criar Resposta Rápida' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova resposta rápida' });
  await dialog.getByLabel('Atalho').fill('tabela');
  await dialog.getByLabel('Texto').fill('Segue a tabela, {{primeiro_nome}}.');
  await dialog.getByLabel('Arquivo (opcional)').setInputFiles({
    name: 'tabela.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(TINY_PDF, 'latin1'),
  });
  await expect(dialog.getByTestId('quick-reply-file')).toContainText('tabela.pdf');
  await page.screenshot(shot('quick-reply-media-dialog-1366'));
  await dialog.getByRole('button', { name: 'Criar Resposta' }).click();
  await expect(dialog).toBeHidden();
  // The list says which replies carry a file.
  await expect(page.getByTestId('quick-reply-item-file')).toHaveText(/tabela\.pdf/);
  await page.screenshot(shot('quick-reply-media-list-1366'));
  const [saved] = (await (await page.request.get('/api/quick-replies')).json()).quickReplies;
  expect(saved).toMatchObject({ shortcut: 'tabela', media: { fileName: 'tabela.pdf' } });

  await page.goto(`/conversations?phone=${phone}`);
  const box = page.getByPlaceholder('Escreva uma mensagem...');
  await box.click();
  await box.pressSequentially('/tabela');
  await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(1);
  await box.press('Enter');
  await expect(box).toHaveValue('Segue a tabela, Davi.');
  await expect(page.getByTestId('composer-attachment')).toContainText('tabela.pdf');
  await page.screenshot(shot('quick-reply-media-composer-1366'));
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByTestId('message-document').filter({ hasText: 'tabela.pdf' })).toBeVisible({
    timeout: 15_000,
  });
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get('/api/whatsapp/simulator/outbox')).json()).messages as Array<{
            to: string;
            fileName?: string;
          }>
        )
          .filter((m) => m.to.replace(/\D/g, '').endsWith(phone))
          .map((m) => m.fileName ?? null),
      { timeout: 15_000 },
    )
    .toContain('tabela.pdf');
});
