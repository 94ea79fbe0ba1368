import AxeBuilder from '@axe-core/playwright';
import { expect, postJson, shot, signInCustomer, test } from './fixtures';

const customer = { prefix: 'grupos', name: 'Gabi Grupos' };

test('groups: create, validate, edit, search, delete; sync and members export need WhatsApp', async ({ page }) => {
  await signInCustomer(page, customer);
  await page.goto('/groups');
  await expect(page.getByText('Nenhum grupo cadastrado')).toBeVisible();

  await page.getByRole('button', { name: 'Novo Grupo' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Novo Grupo' });
  await dialog.getByRole('button', { name: 'Criar Grupo' }).click();
  await expect(page.getByText('Nome do grupo é obrigatório.').first()).toBeVisible();

  await dialog.getByLabel('Nome do grupo').fill('Clientes VIP');
  await dialog.getByLabel('ID do grupo no WhatsApp (opcional)').fill('120363000000000009@g.us');
  await dialog.getByLabel('Número de membros').fill('-5');
  await dialog.getByRole('button', { name: 'Criar Grupo' }).click();
  await expect(page.getByText('Grupo criado com sucesso.').first()).toBeVisible();
  const row = page.getByTestId('group-row').filter({ hasText: 'Clientes VIP' });
  await expect(row).toContainText('0 membros');

  await page.getByRole('button', { name: 'Novo Grupo' }).first().click();
  await dialog.getByLabel('Nome do grupo').fill('clientes vip');
  await dialog.getByRole('button', { name: 'Criar Grupo' }).click();
  await expect(page.getByText('Já existe um grupo com este nome.').first()).toBeVisible();
  await dialog.getByLabel('Nome do grupo').fill('Promoções');
  await dialog.getByLabel('Número de membros').fill('120');
  await dialog.getByRole('button', { name: 'Criar Grupo' }).click();
  await expect(page.getByTestId('group-row')).toHaveCount(2);

  await row.getByRole('button', { name: 'Editar Clientes VIP' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Grupo' });
  await edit.getByLabel('Número de membros').fill('48');
  await edit.getByRole('button', { name: 'Salvar Alterações' }).click();
  await expect(page.getByText('Grupo atualizado com sucesso.').first()).toBeVisible();
  await expect(row).toContainText('48 membros');
  await expect(page.getByText('Total de Membros')).toBeVisible();

  await page.getByLabel('Buscar grupos').fill('promo');
  await expect(page.getByTestId('group-row')).toHaveCount(1);
  await page.getByLabel('Buscar grupos').fill('');
  await page.screenshot(shot('groups-1366'));

  // Without a connected WhatsApp the driver-backed actions say what to do.
  await page.getByRole('button', { name: 'Sincronizar grupos' }).click();
  await expect(page.getByText('Conecte seu WhatsApp para sincronizar os grupos.').first()).toBeVisible();
  await row.getByRole('button', { name: /Exportar membros/ }).click();
  await expect(page.getByText('Conecte seu WhatsApp para exportar os membros do grupo.').first()).toBeVisible();

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await page
    .getByTestId('group-row')
    .filter({ hasText: 'Promoções' })
    .getByRole('button', { name: 'Excluir Promoções' })
    .click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Grupo excluído com sucesso.').first()).toBeVisible();
  await expect(page.getByTestId('group-row')).toHaveCount(1);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot(shot('groups-390'));
});

test('verification tab: result toast, and the connect message when numbers need checking', async ({ page }) => {
  await signInCustomer(page, customer);
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'Verificação' }).click();
  await page.getByRole('button', { name: 'Verificar Contatos' }).click();
  await expect(page.getByText('Verificação concluída!').first()).toBeVisible();
  await expect(page.getByText('0 de 0 contatos têm WhatsApp ativo.').first()).toBeVisible();

  await postJson(page.request, '/api/contacts', { name: 'Ana', phone: '21998765432' });
  await page.getByRole('button', { name: 'Verificar Contatos' }).click();
  await expect(page.getByText('Erro na verificação').first()).toBeVisible();
  await expect(page.getByText('Conecte seu WhatsApp para verificar os números dos contatos.').first()).toBeVisible();
  await page.screenshot(shot('verification-1366'));
});
