import { createHash } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createActiveCustomer, expect, login, postJson, shot, signInCustomer, test } from './fixtures';

type Json = Record<string, unknown>;

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

const origin = () => ({ Origin: new URL(test.info().project.use.baseURL as string).origin });

/** Restores `file` through Settings › 'Restaurar backup' and waits for the outcome. */
async function restoreThroughSettings(page: Page, name: string, file: string) {
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Restaurar backup' })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Arquivo de backup (.json)').setInputFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(file),
  });
  const form = page.locator('form').filter({ has: page.getByLabel('Arquivo de backup (.json)') });
  await form.getByRole('button', { name: 'Restaurar backup' }).click();
  const outcome = page.getByRole('region', { name: 'Resultado da restauração' });
  await expect(outcome).toBeVisible({ timeout: 20_000 });
  return outcome;
}

const campaignCard = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Campanhas' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });

test('a restore into another account brings the campaign image back, and says which one it could not', async ({
  page,
}) => {
  // Two accounts, two restores through the screen.
  test.setTimeout(90_000);
  // The account with the image: an uploaded PNG on a draft campaign.
  await signInCustomer(page, { prefix: 'imgbka', name: 'Iara Imagem', plan: 'enterprise' });
  const uploaded = await page.request.post('/api/uploads', {
    multipart: { file: { name: 'black-friday.png', mimeType: 'image/png', buffer: PNG } },
    headers: origin(),
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  const { id } = await uploaded.json();
  const created = await postJson(page.request, '/api/campaigns', {
    name: 'Black Friday',
    message: 'Descontos de até 50%!',
    imageUrl: `upload:${id}`,
  });
  expect(created.ok(), await created.text()).toBe(true);
  const exported = await page.request.get('/api/backup');
  expect(exported.ok()).toBe(true);
  const file = await exported.text();
  const backup = JSON.parse(file) as Json & { campaigns: Json[]; media: Json[] };
  expect(backup.media).toEqual([
    {
      url: `upload:${id}`,
      fileName: 'black-friday.png',
      contentType: 'image/png',
      kind: 'image',
      size: PNG.length,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      data: PNG.toString('base64'),
    },
  ]);
  // The same campaign as a backup from before images were carried would have it.
  const { media: _media, ...old } = backup;
  const oldFile = JSON.stringify({ ...old, campaigns: [{ ...backup.campaigns[0], name: 'Black Friday antiga' }] });

  // Another account restores the file: the campaign keeps 'Com imagem', an image of its own.
  await postJson(page.request, '/api/auth/logout', {});
  const other = await createActiveCustomer(page, { prefix: 'imgbkb', name: 'Otávio Outra', plan: 'enterprise' });
  await login(page, other.username, other.password);
  const outcome = await restoreThroughSettings(page, 'disparo-backup.json', file);
  await expect(outcome).toContainText('Backup restaurado: 1 campanha adicionada;');
  await expect(outcome.getByRole('region', { name: 'Não restaurado' })).toHaveCount(0);
  const [restored] = (await (await page.request.get('/api/campaigns')).json()) as Json[];
  expect(restored.imageUrl).not.toBe(`upload:${id}`);
  const image = await page.request.get(`/api/uploads/${String(restored.imageUrl).replace('upload:', '')}`);
  expect(image.status()).toBe(200);
  expect(Buffer.from(await image.body()).equals(PNG)).toBe(true);

  // The old file: everything restores, and the screen says which image did not.
  const oldOutcome = await restoreThroughSettings(page, 'backup-antigo.json', oldFile);
  await expect(oldOutcome).toContainText('1 imagem não pôde ser restaurada.');
  const warnings = oldOutcome.getByRole('region', { name: 'Não restaurado' });
  await expect(warnings.getByRole('listitem')).toHaveText([
    'Imagem da campanha “Black Friday antiga” não pôde ser restaurada: o arquivo não traz a imagem (backups feitos antes de as imagens irem junto levam só a referência). Anexe a imagem novamente.',
  ]);
  await page.screenshot(shot('settings-restore-backup-warnings-1366'));
  const axe = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(warnings).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1366, height: 850 });

  await page.goto('/campaigns');
  await expect(campaignCard(page, 'Black Friday')).toContainText('Com imagem');
  await expect(campaignCard(page, 'Black Friday antiga')).toBeVisible();
  await expect(campaignCard(page, 'Black Friday antiga')).not.toContainText('Com imagem');
});
