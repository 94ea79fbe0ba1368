import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  createActiveCustomer,
  expect,
  expectOk,
  login,
  postJson,
  putJson,
  shot,
  signInCustomer,
  test,
} from './fixtures';

type Json = Record<string, unknown>;

// Numbers ending in 0 have no WhatsApp in the simulator: that one's report line fails.
const CONTACTS = [
  { name: 'Ana Backup', phone: '(21) 99876-5431', email: 'ana@example.com', tags: ['vip', 'cliente'] },
  { name: 'Bruno Backup', phone: '(11) 91234-5677', tags: ['lead'] },
  { name: 'Caio Sem WhatsApp', phone: '(31) 98888-7770' },
  { name: 'Dora Descadastrada', phone: '(41) 98777-6665', optedOut: true },
];

/** An account with contacts, a group, a saved message, bot rules, settings and a sent campaign. */
async function seedAccount(page: Page) {
  for (const contact of CONTACTS) await expectOk(postJson(page.request, '/api/contacts', contact), contact.name);
  await expectOk(postJson(page.request, '/api/groups', { name: 'Clientes Fiéis', membersCount: 12 }), 'group');
  await expectOk(
    postJson(page.request, '/api/messages', {
      title: 'Boas-vindas',
      content: '<b>Olá!</b> Seja bem-vindo.',
      contentType: 'html',
    }),
    'saved message',
  );
  await expectOk(
    putJson(page.request, '/api/settings/whatsapp', {
      autoReconnect: true,
      messageDelay: 1,
      dailyLimit: 777,
      respectBusinessHours: false,
      businessStart: '08:00',
      businessEnd: '20:00',
    }),
    'WhatsApp settings',
  );
  await expectOk(
    postJson(page.request, '/api/bot-config', {
      welcomeMessage: 'Olá! Aqui é a Loja do Backup.',
      autoReplies: [
        { trigger: 'preço', response: 'Nossos planos começam em R$ 25,00.' },
        { trigger: 'horário', response: 'Abrimos às 8h.' },
      ],
    }),
    'bot config',
  );
  await expectOk(postJson(page.request, '/api/whatsapp/connect', {}), 'WhatsApp connect');
  await expect
    .poll(async () => (await (await page.request.get('/api/whatsapp-session')).json()).phoneNumber, {
      timeout: 15_000,
    })
    .toBeTruthy();
  const created = await (
    await expectOk(
      postJson(page.request, '/api/campaigns', {
        name: 'Campanha do backup',
        message: 'Oi {{primeiro_nome}}!',
        targetType: 'all',
      }),
      'campaign',
    )
  ).json();
  const id = created.campaign?.id ?? created.id;
  await expectOk(postJson(page.request, `/api/campaigns/${id}/send`, {}), 'send');
  await expect
    .poll(
      async () => {
        const c = await (await page.request.get(`/api/campaigns/${id}`)).json();
        return [c.status, c.progress?.read];
      },
      { timeout: 40_000 },
    )
    .toEqual(['completed', 2]);
  // Credentials of the official API: secrets the backup must leave out.
  const cloud = await (
    await expectOk(
      postJson(page.request, '/api/whatsapp-business/configure', {
        accessToken: 'EAAG-e2e-token',
        phoneNumberId: '109000000000002',
        appSecret: 'segredo-do-app-e2e',
      }),
      'Cloud API credentials',
    )
  ).json();
  return { verifyToken: cloud.config.verifyToken as string, webhookPath: cloud.config.webhookPath as string };
}

/** What the account's screens show, without ids (a restore does not carry them). */
async function figures(page: Page) {
  const get = async (url: string) => {
    const res = await page.request.get(url);
    expect(res.ok(), url).toBe(true);
    return res.json();
  };
  const metrics = await get('/api/metrics');
  const strip = (list: Json[], drop: string[]) =>
    list
      .map((x) => Object.fromEntries(Object.entries(x).filter(([k]) => !drop.includes(k))))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const bot = await get('/api/bot-config');
  return {
    metrics: {
      messagesSent: metrics.messagesSent,
      activeContacts: metrics.activeContacts,
      activeGroups: metrics.activeGroups,
      openRate: metrics.openRate,
    },
    contacts: strip(await get('/api/contacts'), ['id']),
    groups: strip(await get('/api/groups'), ['id']),
    messages: strip(await get('/api/messages'), ['id']),
    campaigns: strip(await get('/api/campaigns'), ['id', 'expectedFinishAt']),
    rules: strip(bot.autoReplies, ['id']),
    welcome: bot.welcomeMessage,
    // The channel follows the WhatsApp credentials, which a backup never carries.
    whatsapp: { ...(await get('/api/settings/whatsapp')), channel: undefined },
  };
}

test('"Backup de Dados" downloads the account; "Restaurar backup" gives a fresh account the same figures', async ({
  page,
}) => {
  // A campaign goes out (a second or so per message), then two accounts are compared.
  test.setTimeout(120_000);
  const first = await signInCustomer(page, { prefix: 'backupa', name: 'Beatriz Backup', plan: 'enterprise' });
  const secrets = await seedAccount(page);
  const before = await figures(page);
  expect(before.metrics).toEqual({ messagesSent: 2, activeContacts: 3, activeGroups: 1, openRate: 100 });

  // The dashboard's quick action downloads one JSON file.
  await page.goto('/dashboard');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Backup de Dados' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^disparo-backup-\d{4}-\d{2}-\d{2}\.json$/);
  await expect(page.getByText('Backup baixado com sucesso.').first()).toBeVisible();
  const path = test.info().outputPath(file.suggestedFilename());
  await file.saveAs(path);
  const text = readFileSync(path, 'utf8');
  const backup = JSON.parse(text);
  expect(backup.format).toBe('disparo-backup');
  expect(backup.version).toBe(1);
  expect(Number.isNaN(Date.parse(backup.exportedAt))).toBe(false);
  expect(backup.contacts).toHaveLength(4);
  expect(backup.groups.map((g: Json) => g.name)).toEqual(['Clientes Fiéis']);
  expect(backup.savedMessages.map((m: Json) => m.title)).toEqual(['Boas-vindas']);
  expect(backup.bot.autoReplies.map((r: Json) => r.trigger)).toEqual(['preço', 'horário']);
  expect(backup.settings.whatsapp.dailyLimit).toBe(777);
  expect(backup.campaigns).toHaveLength(1);
  // Every report line: the four contacts (two read, one without WhatsApp, one opted out) and the group.
  expect(backup.campaigns[0].recipients).toHaveLength(5);
  expect(backup.campaigns[0].recipients.filter((r: Json) => r.status === 'read')).toHaveLength(2);
  // Never a secret: no password, session, token, app secret, webhook key or provider ids.
  for (const secret of [
    first.password,
    'EAAG-e2e-token',
    'segredo-do-app-e2e',
    secrets.verifyToken,
    secrets.webhookPath.split('/').pop() as string,
  ]) {
    expect(text).not.toContain(secret);
  }
  expect(text).not.toMatch(/"(password\w*|\w*[tT]oken\w*|\w*[sS]ecret\w*|webhookKey|providerMessageId|channel)"/);

  // A fresh account restores the file through Settings.
  await expectOk(postJson(page.request, '/api/auth/logout', {}), 'logout');
  const second = await createActiveCustomer(page, { prefix: 'backupb', name: 'Bento Restaura', plan: 'enterprise' });
  await login(page, second.username, second.password);
  await page.goto('/settings');
  const card = page.locator('form').filter({ has: page.getByLabel('Arquivo de backup (.json)') });
  await expect(page.getByRole('heading', { name: 'Restaurar backup' })).toBeVisible();

  // A file that is not a backup is refused before anything changes: in the browser by its kind…
  await page.getByLabel('Arquivo de backup (.json)').setInputFiles({
    name: 'contatos.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Nome;Telefone\nAna;21998765431\n'),
  });
  await expect(page.getByText('Selecione um arquivo de backup .json gerado pelo Disparo.').first()).toBeVisible();
  // …and on the server by its content, with a pt-BR message.
  const refused = await page.request.post('/api/backup/restore', {
    multipart: {
      file: { name: 'contatos.json', mimeType: 'application/json', buffer: Buffer.from('{"contatos":[]}') },
    },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).message).toBe(
    'O arquivo não é um backup do Disparo (formato "disparo-backup" não encontrado).',
  );
  expect(await (await page.request.get('/api/contacts')).json()).toEqual([]);

  await page.getByLabel('Arquivo de backup (.json)').setInputFiles(path);
  await card.getByRole('button', { name: 'Restaurar backup' }).click();
  await expect(page.getByText('Backup restaurado: 4 contatos adicionados;').first()).toBeVisible({ timeout: 20_000 });
  const outcome = page.getByRole('region', { name: 'Resultado da restauração' });
  await expect(outcome.getByRole('listitem').filter({ hasText: 'Contatos' })).toContainText('Adicionados: 4');
  await expect(outcome.getByRole('listitem').filter({ hasText: 'Campanhas' })).toContainText('Adicionados: 1');
  await page.screenshot(shot('settings-restore-backup-1366'));
  const axe = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  const after = await figures(page);
  expect(after).toEqual(before);

  // The same file again: nothing is duplicated.
  await page.getByLabel('Arquivo de backup (.json)').setInputFiles(path);
  await card.getByRole('button', { name: 'Restaurar backup' }).click();
  await expect(page.getByText('Nada a restaurar: todos os dados do backup já estão na conta.').first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(outcome.getByRole('listitem').filter({ hasText: 'Contatos' })).toContainText('Sem alteração: 4');
  expect(await figures(page)).toEqual(before);

  // The card fits a phone screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Restaurar backup' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot(shot('settings-restore-backup-390'));
});
