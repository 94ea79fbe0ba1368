import AxeBuilder from '@axe-core/playwright';
import * as XLSX from '@e965/xlsx';
import { expect, shot, signInCustomer, sql, test } from './fixtures';

function expectAndForget(errors: string[], pattern: RegExp) {
  const i = errors.findIndex((e) => pattern.test(e));
  expect(i, `expected a console error matching ${pattern}`).toBeGreaterThanOrEqual(0);
  errors.splice(i, 1);
}

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const customer = { prefix: 'contatos', name: 'Carla Contatos' };

test('contacts: create, validate, mask and reveal, copy, edit, search, delete', async ({ page, consoleErrors }) => {
  await signInCustomer(page, customer);
  await page.goto('/contacts');
  await expect(page.getByText('Nenhum contato cadastrado')).toBeVisible();

  // Required fields.
  await page.getByRole('button', { name: 'Novo Contato' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Novo Contato' });
  await dialog.getByRole('button', { name: 'Criar Contato' }).click();
  await expect(page.getByText('Nome e telefone são obrigatórios.').first()).toBeVisible();

  // An invalid number is refused by the server in pt-BR.
  await dialog.getByLabel('Nome').fill('João da Silva');
  await dialog.getByLabel('Telefone').fill('123');
  await dialog.getByRole('button', { name: 'Criar Contato' }).click();
  await expect(page.getByText(/Telefone inválido/).first()).toBeVisible();
  // The browser logs the refused call; that 400 is the point of this step.
  expectAndForget(consoleErrors, /status of 400/);

  await dialog.getByLabel('Telefone').fill('(21) 99876-5432');
  await dialog.getByLabel('Email (opcional)').fill('joao@example.com');
  await dialog.getByLabel('Tags').fill(' vip, , cliente ');
  await dialog.getByRole('button', { name: 'Criar Contato' }).click();
  await expect(page.getByText('Contato criado com sucesso.').first()).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('contact-row').filter({ hasText: 'João da Silva' });
  await expect(row.getByText('vip')).toBeVisible();
  await expect(row.getByText('cliente')).toBeVisible();
  // Masked until revealed.
  await expect(row.getByTestId('contact-phone')).toContainText('+55 21 9');
  await expect(row.getByTestId('contact-phone')).not.toContainText('99876-5432');
  await expect(row).toContainText('j•••@example.com');
  await page.screenshot(shot('contacts-masked-1366'));
  await row.getByRole('button', { name: 'Mostrar dados de João da Silva' }).click();
  await expect(row.getByTestId('contact-phone')).toContainText('+55 21 99876-5432');
  await expect(row).toContainText('joao@example.com');
  await expect(row.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute('href', 'https://wa.me/5521998765432');
  await expect(row.getByRole('link', { name: /Enviar email/ })).toHaveAttribute('href', 'mailto:joao@example.com');

  await row.getByRole('button', { name: 'Copiar telefone de João da Silva' }).click();
  await expect(page.getByText('Copiado!').first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('+5521998765432');

  // The same number in another spelling is the same contact.
  await page.getByRole('button', { name: 'Novo Contato' }).first().click();
  await dialog.getByLabel('Nome').fill('Outro');
  await dialog.getByLabel('Telefone').fill('5521998765432');
  await dialog.getByRole('button', { name: 'Criar Contato' }).click();
  await expect(page.getByText('Já existe um contato com este telefone.').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancelar' }).click();

  // Edit: opt out.
  await row.getByRole('button', { name: 'Editar João da Silva' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Contato' });
  await expect(edit.getByLabel('Nome')).toHaveValue('João da Silva');
  await edit.getByLabel('Descadastrado (opt-out)').click();
  await edit.getByRole('button', { name: 'Salvar Alterações' }).click();
  await expect(page.getByText('Contato atualizado com sucesso.').first()).toBeVisible();
  await expect(row.getByText('Descadastrado')).toBeVisible();

  // Search by phone digits written differently.
  await page.getByLabel('Buscar contatos').fill('(21) 9987');
  await expect(page.getByTestId('contact-row')).toHaveCount(1);
  await page.getByLabel('Buscar contatos').fill('maria');
  await expect(page.getByText('Nenhum contato encontrado')).toBeVisible();
  await page.getByLabel('Buscar contatos').fill('');

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // Delete with confirmation.
  await row.getByRole('button', { name: 'Excluir João da Silva' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Contato excluído com sucesso.').first()).toBeVisible();
  await expect(page.getByText('Nenhum contato cadastrado')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot(shot('contacts-empty-390'));
});

test('contacts: import a CSV with its result and rejected rows, templates and export', async ({ page }) => {
  await signInCustomer(page, customer);
  await page.goto('/contacts');
  await page.getByRole('button', { name: 'Importar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar Contatos' });

  // The picker refuses other files at once.
  await dialog.getByLabel('Arquivo de contatos').setInputFiles({
    name: 'foto.png',
    mimeType: 'image/png',
    buffer: Buffer.from('png'),
  });
  await expect(page.getByText('Arquivo inválido').first()).toBeVisible();

  const template = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Modelo Excel' }).click();
  expect((await template).suggestedFilename()).toBe('modelo-contatos.xlsx');

  const csv = [
    'Nome;Telefone;Email;Tags',
    'Ana Import;(21) 99876-5432;ana@example.com;vip',
    'Ana Dup;5521998765432;;',
    'Bruno Import;11 91234-5678;;lead',
    'Caio Ruim;123;;',
  ].join('\n');
  await dialog.getByLabel('Arquivo de contatos').setInputFiles({
    name: 'contatos.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await dialog.getByRole('button', { name: 'Importar' }).click();
  await expect(page.getByText('2 contatos importados com sucesso').first()).toBeVisible();
  const result = dialog.getByRole('region', { name: 'Resultado da importação' });
  await expect(result.getByText('Linha 5: Telefone inválido (123)')).toBeVisible();
  await expect(result.locator('dd')).toHaveText(['2', '1', '1']);
  await page.screenshot(shot('contacts-import-result-1366'));

  const rejected = page.waitForEvent('download');
  await result.getByRole('link', { name: 'Baixar linhas rejeitadas' }).click();
  const file = await rejected;
  expect(file.suggestedFilename()).toBe('linhas-rejeitadas.csv');
  const text = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(text).toString('utf8')).toContain('5;Telefone inválido;Caio Ruim;123;;');

  await dialog.getByRole('button', { name: 'Concluir' }).click();
  await expect(page.getByTestId('contact-row')).toHaveCount(2);

  // Export from the contacts page and from the dashboard quick action.
  await page.getByRole('button', { name: 'Exportar Contatos' }).click();
  const exported = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Excel (.xlsx)' }).click();
  const xlsxFile = await exported;
  expect(xlsxFile.suggestedFilename()).toMatch(/^contatos-\d{4}-\d\d-\d\d\.xlsx$/);
  // The workbook holds the account's contacts, read back with the same spreadsheet library.
  const workbook = XLSX.read(Buffer.concat(await (await xlsxFile.createReadStream()).toArray()), { type: 'buffer' });
  const rows = XLSX.utils.sheet_to_json<string[]>(workbook.Sheets[workbook.SheetNames[0]], { header: 1, raw: false });
  expect(rows[0]).toEqual(['Nome', 'Telefone', 'Email', 'Tags', 'Ativo', 'Descadastrado', 'WhatsApp']);
  expect(rows).toContainEqual([
    'Ana Import',
    '+5521998765432',
    'ana@example.com',
    'vip',
    'Sim',
    'Não',
    'Não verificado',
  ]);
  await page.keyboard.press('Escape');

  // With the tag chip 'vip' pressed, the list shows Ana only, and so does the file.
  await page.getByRole('list', { name: 'Filtrar por tag' }).getByRole('button', { name: /^vip,/ }).click();
  await expect(page.getByTestId('contact-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Exportar Contatos' }).click();
  await expect(page.getByTestId('export-scope')).toHaveText('Somente os contatos com a tag vip, como na lista.');
  await page.screenshot(shot('contacts-export-tag-1366'));
  const filtered = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Planilha CSV (.csv)' }).click();
  const filteredBody = Buffer.concat(await (await (await filtered).createReadStream()).toArray()).toString('utf8');
  const filteredLines = filteredBody
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(filteredLines).toHaveLength(2);
  expect(filteredLines[1]).toContain('Ana Import;+5521998765432');
  expect(filteredBody).not.toContain('Bruno Import');
  await page.keyboard.press('Escape');

  await page.goto('/dashboard');
  const quick = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exportar Contatos' }).click();
  const quickFile = await quick;
  expect(quickFile.suggestedFilename()).toMatch(/\.csv$/);
  const body = Buffer.concat(await (await quickFile.createReadStream()).toArray()).toString('utf8');
  expect(body).toContain('Ana Import;+5521998765432;ana@example.com;vip');
});

test('a contact without a name is known by its number in its row and its delete confirmation', async ({ page }) => {
  const { username } = await signInCustomer(page, { prefix: 'semnome', name: 'Sara Sem Nome' });
  await sql(
    `insert into contacts (user_id, name, phone) select id, '', '+5511987650098' from users where username = $1`,
    [username],
  );
  await page.goto('/contacts');
  const row = page.getByTestId('contact-row').filter({ hasText: '+55 11 9' });
  await expect(row.getByText('+55 11 9••••••98', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Excluir +55 11 9••••••98' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Tem certeza que deseja excluir +55 11 98765-0098?');
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByTestId('contact-row')).toHaveCount(0);
});
