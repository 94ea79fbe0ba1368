import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, postJson, shot, signInCustomer, test } from './fixtures';

const customer = { prefix: 'publico', name: 'Paula Público' };

// All have WhatsApp in the simulator (none ends in 0: simulatedNumberExists).
const CONTACTS = [
  { name: 'Ana Souza', phone: '(21) 99876-5431', tags: ['vip'] },
  { name: 'Bruno Lima', phone: '(11) 91234-5677', tags: ['vip', 'lead'] },
  { name: 'Carla Dias', phone: '(31) 98888-7773', tags: ['lead'] },
  { name: 'Davi Reis', phone: '(41) 97777-6661' },
  { name: 'Eva Saiu', phone: '(51) 96666-5559', tags: ['vip'], optedOut: true },
];

async function addContacts(page: Page) {
  for (const contact of CONTACTS) {
    const res = await postJson(page.request, '/api/contacts', contact);
    expect(res.ok(), `contact ${contact.name}`).toBe(true);
  }
}

const axeSerious = async (page: Page, include?: string) => {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']);
  const result = await (include ? builder.include(include) : builder).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
};

test('audience: filter contacts by a tag chip, tag and delete in bulk, and see the recipients before saving a campaign', async ({
  page,
}) => {
  // Two pages and a dialog, each step waiting on the server: more than the default on a busy machine.
  test.setTimeout(90_000);
  await signInCustomer(page, customer);
  await addContacts(page);
  await page.goto('/contacts');

  const rows = page.getByTestId('contact-row');
  await expect(rows).toHaveCount(5);
  // The account's tags as chips with their counts, most used first.
  const chips = page.getByRole('list', { name: 'Filtrar por tag' });
  const names = (list: typeof chips) =>
    list
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent));
  await expect(chips.getByRole('button', { name: 'vip, 3 contatos' })).toContainText('vip3');
  expect(await names(chips)).toEqual(['Todos', 'vip, 3 contatos', 'lead, 2 contatos']);
  await expect(chips.getByRole('button', { name: 'Todos' })).toHaveAttribute('aria-pressed', 'true');

  // A chip filters the list.
  await chips.getByRole('button', { name: /^lead/ }).click();
  await expect(chips.getByRole('button', { name: /^lead/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Bruno Lima' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Carla Dias' })).toHaveCount(1);

  // Select the page, add a tag to both.
  await page.getByLabel('Selecionar todos').check();
  const bar = page.getByTestId('contacts-bulk-bar');
  await expect(bar).toContainText('2 contatos selecionados');
  await page.screenshot(shot('audience-contacts-selected-1366'));
  await bar.getByRole('button', { name: 'Adicionar tag' }).click();
  const tagDialog = page.getByRole('dialog', { name: 'Adicionar tag' });
  await expect(tagDialog).toContainText('A tag é adicionada aos 2 contatos selecionados.');
  await tagDialog.getByLabel('Tag', { exact: true }).fill('promo');
  await tagDialog.getByRole('button', { name: 'Adicionar tag' }).click();
  await expect(page.getByText('Tag "promo" adicionada a 2 contatos.').first()).toBeVisible();
  await expect(tagDialog).toBeHidden();
  await expect(chips.getByRole('button', { name: /^promo/ })).toHaveAccessibleName('promo, 2 contatos');
  await expect(rows.first()).toContainText('promo');

  // Back to everyone; delete one contact, after a confirmation that says how many.
  await chips.getByRole('button', { name: 'Todos' }).click();
  await expect(rows).toHaveCount(5);
  await expect(bar).toBeHidden();
  await page.getByLabel('Selecionar Davi Reis').check();
  await expect(bar).toContainText('1 contato selecionado');
  await bar.getByRole('button', { name: 'Excluir' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Tem certeza que deseja excluir 1 contato selecionado?');
  await confirm.getByRole('button', { name: 'Excluir 1 contato' }).click();
  await expect(page.getByText('1 contato excluído com sucesso.').first()).toBeVisible();
  await expect(rows).toHaveCount(4);

  // The search box finds tags too.
  await page.getByLabel('Buscar contatos').fill('promo');
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Buscar contatos').fill('');
  await expect(rows).toHaveCount(4);

  expect(await axeSerious(page)).toEqual([]);
  await page.screenshot(shot('audience-contacts-1366'));
  await page.getByLabel('Selecionar Ana Souza').check();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(bar).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot(shot('audience-contacts-390'));
  // On a phone the bar stays at the bottom of the screen over the list.
  await page.getByRole('list', { name: 'Contatos' }).scrollIntoViewIfNeeded();
  await page.screenshot({ ...shot('audience-contacts-selected-390'), fullPage: false });
  await page.setViewportSize({ width: 1366, height: 850 });

  // The campaign dialog counts the recipients of each choice before saving.
  await page.goto('/campaigns');
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  const count = dialog.getByTestId('audience-count');
  // Everyone: Ana, Bruno and Carla; Eva asked not to receive messages.
  await expect(count.getByTestId('audience-recipients')).toHaveText('3 destinatários');
  await expect(count).toContainText('1 será ignorado');
  await expect(count).toContainText('Contato pediu para não receber mensagens (opt-out).');

  await dialog.getByLabel('Público-alvo').selectOption({ label: 'Contatos' });
  const tagChips = dialog.getByRole('list', { name: 'Tags dos seus contatos' });
  await expect(tagChips.getByRole('button', { name: 'promo, 2 contatos' })).toBeVisible();
  expect(await names(tagChips)).toEqual(['vip, 3 contatos', 'lead, 2 contatos', 'promo, 2 contatos']);
  await tagChips.getByRole('button', { name: /^promo/ }).click();
  await expect(dialog.getByLabel('Tags (opcional)')).toHaveValue('promo');
  await expect(count.getByTestId('audience-recipients')).toHaveText('2 destinatários');
  await expect(count).not.toContainText('ignorado');
  await tagChips.getByRole('button', { name: /^vip/ }).click();
  await expect(dialog.getByLabel('Tags (opcional)')).toHaveValue('promo, vip');
  await expect(count.getByTestId('audience-recipients')).toHaveText('3 destinatários');
  // A tag nobody has yet may still be typed; it adds no one.
  await dialog.getByLabel('Tags (opcional)').fill('promo, vip, novidade');
  await expect(count.getByTestId('audience-recipients')).toHaveText('3 destinatários');
  await dialog.getByLabel('Tags (opcional)').fill('novidade');
  await expect(count.getByTestId('audience-recipients')).toHaveText('0 destinatários');
  await expect(count).toContainText('A campanha não tem destinatários');
  await tagChips.getByRole('button', { name: /^promo/ }).click();
  await expect(dialog.getByLabel('Tags (opcional)')).toHaveValue('novidade, promo');
  await expect(count.getByTestId('audience-recipients')).toHaveText('2 destinatários');

  await dialog.getByLabel('Nome da campanha').fill('Só promo');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Oi {{primeiro_nome}}, a promoção chegou!');
  await page.screenshot(shot('audience-campaign-dialog-1366'));
  expect(await axeSerious(page, '[role="dialog"]')).toEqual([]);
  await dialog.getByRole('button', { name: 'Criar Campanha' }).click();
  await expect(page.getByText('Campanha criada com sucesso.').first()).toBeVisible();
  await expect(page.getByTestId('campaign-card').filter({ hasText: 'Só promo' })).toContainText(
    'Contatos com as tags novidade, promo',
  );
});

test('groups: what a group is, sync from the connected number, and a group without a WhatsApp id cannot be a target', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signInCustomer(page, customer);
  const manual = await postJson(page.request, '/api/groups', { name: 'Lista manual', membersCount: 25 });
  expect(manual.ok()).toBe(true);
  await page.goto('/groups');
  const explainer = page.getByTestId('groups-explainer');
  await expect(explainer).toContainText(
    'Um grupo aqui é um grupo do WhatsApp do qual o seu número conectado participa.',
  );
  await expect(explainer.getByRole('link', { name: 'Contatos' })).toHaveAttribute('href', '/contacts');
  const manualRow = page.getByTestId('group-row').filter({ hasText: 'Lista manual' });
  await expect(manualRow).toContainText('Sem vínculo');
  await expect(manualRow).toContainText('Não recebe campanhas');

  // The simulated number belongs to three groups: a sync brings them with their member counts.
  expect((await postJson(page.request, '/api/whatsapp/connect', {})).ok()).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get('/api/whatsapp-session')).json()).phoneNumber, {
      timeout: 15_000,
    })
    .toBeTruthy();
  await page.getByRole('button', { name: 'Sincronizar grupos' }).first().click();
  await expect(page.getByText('Sincronização concluída: 3 grupos novos, 0 atualizados.').first()).toBeVisible();
  await expect(page.getByTestId('group-row')).toHaveCount(4);
  const synced = page.getByTestId('group-row').filter({ hasText: 'Promoções (simulado)' });
  await expect(synced).toContainText('6 membros');
  await expect(synced).toContainText('WhatsApp');
  expect(await axeSerious(page)).toEqual([]);
  await page.screenshot(shot('audience-groups-1366'));
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot(shot('audience-groups-390'));
  await page.setViewportSize({ width: 1366, height: 850 });

  // The manual group's hint in its dialog; 'Número de membros' is kept, and said to come from WhatsApp when synced.
  await manualRow.getByRole('button', { name: 'Editar Lista manual' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Grupo' });
  await expect(edit).toContainText('Sem o ID, o grupo não pode receber campanhas.');
  await expect(edit).toContainText('Grupos sincronizados têm este número preenchido pelo WhatsApp');
  await page.keyboard.press('Escape');

  // In the campaign dialog the manual group cannot be ticked; a synced one counts as one recipient.
  await page.goto('/campaigns');
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await dialog.getByLabel('Público-alvo').selectOption({ label: 'Grupos específicos' });
  await expect(dialog.getByRole('checkbox', { name: /Lista manual/ })).toBeDisabled();
  await expect(dialog.getByTestId('audience-count')).toContainText('Escolha os grupos');
  await dialog.getByRole('checkbox', { name: /Promoções \(simulado\)/ }).check();
  await expect(dialog.getByTestId('audience-recipients')).toHaveText('1 destinatário');
  await page.keyboard.press('Escape');

  // Saved by another client, the server refuses it with a reason naming the group.
  const refused = await postJson(page.request, '/api/campaigns', {
    name: 'Para a lista',
    message: 'Oi',
    targetType: 'groups',
    targetGroups: ['Lista manual'],
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).message).toContain('O grupo "Lista manual" não está vinculado a um grupo do WhatsApp');
});
