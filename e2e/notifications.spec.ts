import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, shot, signInCustomer, test } from './fixtures';

const bell = (page: Page) => page.getByTestId('notifications-bell');
const badge = (page: Page) => page.getByTestId('notifications-badge');
const panel = (page: Page) => page.getByRole('dialog', { name: 'Notificações' });

/** Imports contacts through the page's own dialog, as a person does. */
async function importThroughPage(page: Page, rows: string[]) {
  await page.goto('/contacts');
  await page.getByRole('button', { name: 'Importar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar Contatos' });
  await dialog.getByLabel('Arquivo de contatos').setInputFiles({
    name: 'clientes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['Nome;Telefone', ...rows].join('\n')),
  });
  await dialog.getByRole('button', { name: 'Importar' }).click();
  await expect(dialog.getByRole('region', { name: 'Resultado da importação' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

test('notifications: an import rings the bell, the panel lists it, opening marks it read', async ({ page }) => {
  await signInCustomer(page, { prefix: 'sino', name: 'Sofia Sino' });

  // A new account: no badge, an empty panel.
  await expect(bell(page)).toHaveAccessibleName('Notificações');
  await expect(badge(page)).toHaveCount(0);
  await bell(page).click();
  await expect(panel(page).getByText('Nenhuma notificação')).toBeVisible();
  await page.keyboard.press('Escape');

  await importThroughPage(page, ['Ana Sino;(21) 99876-5432', 'Bruno Sino;(11) 91234-5678']);

  // The bell shows it at once (the import asks for the count again; the poll would within 30 s).
  await expect(badge(page)).toHaveText('1');
  await expect(bell(page)).toHaveAccessibleName('Notificações (1 nova)');

  await bell(page).click();
  const item = panel(page).getByTestId('notification');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Importação concluída');
  await expect(item).toContainText('2 contatos importados com sucesso');
  await expect(item).toContainText('agora');
  await expect(item).not.toContainText('0m atrás');
  // Unread when the panel opened: highlighted while it stays open…
  await expect(item).toHaveAttribute('data-unread', 'true');
  // …and read on the server at once: the badge clears.
  await expect(badge(page)).toHaveCount(0);
  await expect(bell(page)).toHaveAccessibleName('Notificações');
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await page.screenshot(shot('notifications-panel-1366'));

  // 'Marcar todas como lidas' takes the highlight away.
  await panel(page).getByRole('button', { name: 'Marcar todas como lidas' }).click();
  await expect(item).toHaveAttribute('data-unread', 'false');
  await expect(panel(page).getByRole('button', { name: 'Marcar todas como lidas' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Still read after a reload.
  await page.reload();
  await expect(bell(page)).toBeVisible();
  await expect(badge(page)).toHaveCount(0);
  await bell(page).click();
  await expect(panel(page).getByTestId('notification')).toHaveAttribute('data-unread', 'false');
  await page.keyboard.press('Escape');

  // A second import: the newest first; a click on it goes to its link.
  await importThroughPage(page, ['Caio Sino;(31) 98888-7771']);
  await expect(badge(page)).toHaveText('1');
  await page.goto('/dashboard');
  await bell(page).click();
  const items = panel(page).getByTestId('notification');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText('1 contato importado com sucesso');
  await expect(items.first()).toHaveAttribute('data-unread', 'true');
  await expect(items.nth(1)).toHaveAttribute('data-unread', 'false');
  await items.first().getByRole('button').click();
  await page.waitForURL('**/contacts');
  await expect(panel(page)).toBeHidden();
  await expect(badge(page)).toHaveCount(0);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('notifications: the panel fits a phone', async ({ page }) => {
    await signInCustomer(page, { prefix: 'sinomovel', name: 'Marta Movel' });
    await importThroughPage(page, ['Dora Movel;(41) 98777-6651', 'Eva Movel;(41) 98777-6653']);
    await importThroughPage(page, ['Fabio Movel;(41) 98777-6655']);
    await page.goto('/dashboard');
    await expect(badge(page)).toHaveText('2');
    await bell(page).click();
    await expect(panel(page).getByTestId('notification')).toHaveCount(2);
    await expect(badge(page)).toHaveCount(0);
    const box = await panel(page).boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The viewport only: the panel, not the whole page below it.
    await page.screenshot({ ...shot('notifications-panel-390'), fullPage: false });
  });
});

test('verification screen: online users, active total and the activity log', async ({ page }) => {
  await signInCustomer(page, { prefix: 'presenca', name: 'Paula Presenca' });
  await importThroughPage(page, ['Gil Presenca;(21) 99876-5401']);
  await page.goto('/dashboard?tab=verification');

  const onlineCard = page.getByTestId('online-card');
  await expect(onlineCard).toContainText('Usuários Online');
  await expect(onlineCard.getByTestId('figure')).toHaveText('1');
  await expect(onlineCard).toContainText('0 offline recentemente');
  const activeCard = page.getByTestId('total-active-card');
  await expect(activeCard).toContainText('Total Ativos');
  await expect(activeCard.getByTestId('figure')).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Verificar Contatos' })).toBeVisible();

  const online = page.getByRole('list', { name: 'Usuários ativos' });
  await expect(online.getByRole('listitem')).toHaveCount(1);
  await expect(online).toContainText('Paula Presenca (Você)');
  await expect(online).toContainText('Online');

  await page.getByRole('tab', { name: 'Atividade' }).click();
  const events = page.getByTestId('activity-event');
  await expect(events.first()).toContainText('Contatos importados');
  await expect(events.first()).toContainText('clientes.csv: 1 contato importado com sucesso');
  await expect(events.last()).toContainText('Entrou no sistema');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await page.screenshot(shot('verification-activity-1366'));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('tab', { name: 'Online' }).click();
  await expect(online).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot(shot('verification-online-390'));
});
