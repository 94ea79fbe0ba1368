import type { Page } from '@playwright/test';
import { expect, prepareSendingAccount, shot, signInCustomer, test } from './fixtures';

// Numbers ending in 0 have no WhatsApp in the simulator; these two get every message.
const CONTACTS = [
  { name: 'Ana Souza', phone: '(21) 99876-5431' },
  { name: 'Bruno Lima', phone: '(11) 91234-5677' },
];

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20_000, 0x41), Buffer.from('\n%%EOF\n')]);

interface Sent {
  to: string;
  kind?: string;
  mediaKind?: string;
  fileName?: string;
}

async function outbox(page: Page): Promise<Sent[]> {
  const res = await page.request.get('/api/whatsapp/simulator/outbox');
  expect(res.ok(), 'simulator outbox').toBe(true);
  return (await res.json()).messages;
}

test('a campaign made in the form with a PDF, a location and a contact card reaches each contact with all three', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'anexos', name: 'Alice Anexos' });
  await prepareSendingAccount(page, CONTACTS);

  await page.goto('/campaigns');
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await dialog.getByLabel('Nome da campanha').fill('Catálogo de verão');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Oi {{primeiro_nome}}, segue o catálogo.');

  await dialog.getByTestId('attachment-file').setInputFiles({
    name: 'catalogo.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect(dialog.getByText('catalogo.pdf').first()).toBeVisible();

  await dialog.getByRole('button', { name: 'Adicionar localização' }).click();
  await dialog.getByLabel('Latitude').fill('-22,9068');
  await dialog.getByLabel('Longitude').fill('-43.1729');
  await dialog.getByLabel('Nome do local (opcional)').fill('Loja Centro');
  await dialog.getByRole('button', { name: 'Adicionar cartão' }).click();
  await dialog.getByLabel('Nome do contato').fill('Atendimento');
  await dialog.getByLabel('Telefone do contato').fill('(21) 99876-5432');
  await dialog.getByLabel('Público-alvo').selectOption({ label: 'Contatos' });
  // The preview lists what goes with the text.
  const extras = dialog.getByTestId('campaign-preview-extras');
  await expect(extras).toContainText('catalogo.pdf');
  await expect(extras).toContainText('Localização: Loja Centro');
  await expect(extras).toContainText('Cartão de contato: Atendimento');
  await page.screenshot(shot('campaign-attachments-dialog-1366'));
  await dialog.getByRole('button', { name: 'Criar Campanha' }).click();
  await expect(page.getByText('Campanha criada com sucesso.').first()).toBeVisible();
  await expect(dialog).toBeHidden();

  // The card says what the campaign carries.
  const card = page.getByTestId('campaign-card').filter({ hasText: 'Catálogo de verão' });
  await expect(card).toContainText('catalogo.pdf');
  await expect(card).toContainText('Localização');
  await expect(card).toContainText('Cartão de contato');

  const campaigns = await (await page.request.get('/api/campaigns')).json();
  const created = (Array.isArray(campaigns) ? campaigns : campaigns.campaigns).find(
    (c: { name: string }) => c.name === 'Catálogo de verão',
  );
  expect(created).toMatchObject({
    location: { latitude: -22.9068, longitude: -43.1729, name: 'Loja Centro' },
    contactCard: { name: 'Atendimento', phone: '21998765432' },
  });
  expect(created.mediaUrl).toMatch(/^upload:/);
  const sent = await page.request.post(`/api/campaigns/${created.id}/send`, {
    headers: { origin: new URL(page.url()).origin },
  });
  expect(sent.ok(), await sent.text()).toBe(true);

  await expect.poll(async () => (await outbox(page)).length, { timeout: 45_000 }).toBe(6);
  const messages = await outbox(page);
  for (const to of ['5521998765431', '5511912345677']) {
    const mine = messages.filter((m) => m.to.replace(/\D/g, '').endsWith(to.slice(-8)));
    expect(mine.map((m) => m.kind)).toEqual(['media', 'location', 'contact']);
    expect(mine[0]).toMatchObject({ mediaKind: 'document', fileName: 'catalogo.pdf' });
  }
  await page.screenshot(shot('campaign-attachments-card-1366'));
});

test('a saved message with a PDF keeps it, shows it, and brings it into a new campaign', async ({ page }) => {
  await signInCustomer(page, { prefix: 'salvaarq', name: 'Sara Salva' });
  await page.goto('/dashboard');
  await page.getByRole('main').getByRole('button', { name: 'Mensagem', exact: true }).click();
  const compose = page.getByRole('dialog', { name: 'Compor Nova Mensagem' });
  await compose.getByLabel('Título').fill('Tabela de preços');
  await compose.getByLabel('Conteúdo da mensagem').fill('Segue a tabela, {{primeiro_nome}}.');
  await compose.getByTestId('attachment-file').setInputFiles({
    name: 'precos.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect(compose.getByText('precos.pdf')).toBeVisible();
  await compose.getByRole('button', { name: 'Salvar Mensagem' }).click();
  await expect(page.getByText('Mensagem salva com sucesso!').first()).toBeVisible();
  await expect(compose).toBeHidden();

  const saved = (await (await page.request.get('/api/messages')).json()) as Array<Record<string, unknown>>;
  expect(saved).toHaveLength(1);
  expect(saved[0]).toMatchObject({ hasImage: false, media: { kind: 'document', fileName: 'precos.pdf' } });
  expect(saved[0].mediaUrl).toMatch(/^upload:/);

  await page.goto('/campaigns');
  await expect(page.getByText('precos.pdf').first()).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await dialog.getByLabel('Usar uma mensagem salva (opcional)').selectOption({ label: 'Tabela de preços' });
  await expect(dialog.getByLabel('Mensagem', { exact: true })).toHaveValue('Segue a tabela, {{primeiro_nome}}.');
  await expect(dialog.getByText('precos.pdf').first()).toBeVisible();
  await dialog.getByLabel('Nome da campanha').fill('Preços');
  await dialog.getByRole('button', { name: 'Criar Campanha' }).click();
  await expect(page.getByText('Campanha criada com sucesso.').first()).toBeVisible();
  const list = await (await page.request.get('/api/campaigns')).json();
  const created = (Array.isArray(list) ? list : list.campaigns).find((c: { name: string }) => c.name === 'Preços');
  expect(created.mediaUrl).toBe(saved[0].mediaUrl);
  await page.screenshot(shot('saved-message-file-1366'));
});
