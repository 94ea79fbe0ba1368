import type { Page } from '@playwright/test';
import { botMsg } from '../contract/bot';
import { queuesMsg } from '../contract/queues';
import {
  expect,
  expectOk,
  joinAsMember,
  postJson,
  prepareSendingAccount,
  shot,
  signInCustomer,
  test,
} from './fixtures';

/** Nothing on the page is wider than the screen (as e2e/mobile-reach.spec.ts checks it). */
async function expectNoSideScroll(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what}: page width ${scrollWidth} > ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
}

/**
 * Filas: an owner creates 'Financeiro' with the account's number, its people and its hours, edits
 * it, finds a new conversation of that number in it on Conversas (its badge and the 'Fila' filter),
 * an agent sees the queue without the buttons to change it, and the owner deletes it. At 390 px
 * nothing scrolls sideways.
 */
test('an owner creates, edits and deletes a queue; Conversas shows and filters by it; an agent only reads it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInCustomer(page, { prefix: 'filas', name: 'Flávia Dona', plan: 'professional' });
  await prepareSendingAccount(page, [{ name: 'Carla Conta', phone: '(21) 99876-5544' }]);
  const phone = '5521998765544';
  const numbers = (await (await page.request.get('/api/connections')).json()).connections as Array<{ label: string }>;
  expect(numbers.length).toBeGreaterThan(0);
  const numberLabel = numbers[0].label;

  await page.goto('/dashboard');
  await page.getByRole('navigation').getByRole('link', { name: 'Filas' }).first().click();
  await expect(page).toHaveURL(/\/filas$/);
  await expect(page.getByRole('heading', { name: queuesMsg.title, level: 2 })).toBeVisible();
  await expect(page.getByText('Nenhuma fila ainda')).toBeVisible();

  // Create: the contract's messages under the fields first.
  await page.getByRole('button', { name: 'Nova Fila' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova fila' });
  await dialog.getByRole('button', { name: 'Criar Fila' }).click();
  await expect(dialog.getByText(queuesMsg.nameRequired)).toBeVisible();
  await expect(dialog.getByLabel('Nome')).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByLabel('Nome').fill('Financeiro');
  await dialog.getByTestId('queue-numbers').getByLabel(numberLabel).check();
  await dialog
    .getByTestId('queue-members')
    .getByLabel(/Flávia Dona/)
    .check();
  await dialog.getByRole('radio', { name: 'Em rodízio entre quem está online' }).click();
  await dialog.getByRole('switch', { name: 'Aberta 24 horas' }).click();
  await dialog.getByLabel('Início').fill('18:00');
  await dialog.getByLabel('Fim').fill('08:00');
  await dialog.getByRole('button', { name: 'Criar Fila' }).click();
  await expect(dialog.getByText(botMsg.businessOrder)).toBeVisible();
  await dialog.getByLabel('Início').fill('08:00');
  await dialog.getByLabel('Fim').fill('17:00');
  await expect(dialog.getByText(botMsg.businessOrder)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Sábado' }).click();
  await expect(dialog.getByRole('button', { name: 'Sábado' })).toHaveAttribute('aria-pressed', 'true');
  await dialog.getByLabel('Mensagem fora do horário').fill('Voltamos amanhã às 8h.');
  await page.screenshot(shot('queues-dialog-1366'));
  await dialog.getByRole('button', { name: 'Criar Fila' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId('queue-card').filter({ hasText: 'Financeiro' });
  await expect(card).toContainText(numberLabel);
  await expect(card).toContainText('Flávia Dona');
  await expect(card).toContainText('Seg a Sáb · 08:00 às 17:00');
  await expect(card).toContainText('Em rodízio entre quem está online');
  await expect(card).toContainText('Nenhuma conversa aberta');

  // Edit: open around the clock, the first to take a conversation has it.
  await card.getByRole('button', { name: 'Editar Financeiro' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar fila' });
  await expect(edit.getByLabel('Nome')).toHaveValue('Financeiro');
  await expect(edit.getByLabel('Início')).toHaveValue('08:00');
  await edit.getByRole('switch', { name: 'Aberta 24 horas' }).click();
  await expect(edit.getByLabel('Início')).toHaveCount(0);
  await edit.getByRole('radio', { name: 'Quem pegar primeiro' }).click();
  await edit.getByRole('button', { name: 'Salvar Alterações' }).click();
  await expect(edit).toBeHidden();
  await expect(card).toContainText('24 horas');
  await expect(card).toContainText('Quem pegar primeiro');

  // A new conversation on the queue's number joins it.
  await expectOk(
    postJson(page.request, '/api/whatsapp/simulator/inbound', { from: phone, text: 'Oi, e o boleto?' }),
    'inbound',
  );
  await page.reload();
  await expect(card).toContainText('1 conversa aberta');
  await page.screenshot(shot('queues-1366'));
  await card.getByTestId('queue-open').click();
  await expect(page).toHaveURL(/\/conversations\?queue=/);
  await expect(page.getByRole('combobox', { name: 'Fila', exact: true })).toHaveValue(/.+/);
  const row = page.getByTestId('conversation-item').filter({ hasText: 'Carla Conta' });
  await expect(row.getByTestId('conversation-item-queue')).toHaveText('Fila: Financeiro');
  await page.getByRole('combobox', { name: 'Fila', exact: true }).selectOption({ label: 'Todas as filas' });
  await expect(page).not.toHaveURL(/queue=/);
  await expect(row).toBeVisible();
  await page.getByRole('combobox', { name: 'Fila', exact: true }).selectOption({ label: 'Financeiro' });
  await expect(page).toHaveURL(/queue=/);
  await row.click();
  await expect(page.getByTestId('conversation-queue')).toHaveText('Fila: Financeiro');
  await page.screenshot(shot('queues-conversation-1366'));

  // A chatbot rule hands its conversations to the queue: chosen in the rule's dialog, kept by the server.
  await page.goto('/chatbot');
  await page.getByRole('button', { name: 'Criar Primeira Mensagem' }).first().click();
  const rule = page.getByRole('dialog', { name: 'Criar Nova Mensagem Automática' });
  await rule.getByLabel('Palavra-chave').first().fill('boleto');
  await rule.getByLabel('Mensagem', { exact: true }).fill('Vou te passar para o financeiro.');
  await rule.getByLabel('Encaminhar para a fila').selectOption({ label: 'Financeiro' });
  await page.screenshot(shot('queues-rule-1366'));
  await rule.getByRole('button', { name: 'Adicionar Mensagem' }).click();
  await expect(rule).toBeHidden();
  const queueOf = async () =>
    ((await (await page.request.get('/api/bot-config')).json()).autoReplies as Array<{ queueId: string | null }>).map(
      (r) => r.queueId,
    );
  const [financeiro] = ((await (await page.request.get('/api/queues')).json()).queues as Array<{ id: string }>).map(
    (q) => q.id,
  );
  expect(await queueOf()).toEqual([financeiro]);
  // Opened again, the rule shows its queue; 'Nenhuma' takes it away.
  await page
    .getByRole('button', { name: /Editar/ })
    .first()
    .click();
  const ruleEdit = page.getByRole('dialog', { name: 'Editar Mensagem Automática' });
  await expect(ruleEdit.getByLabel('Encaminhar para a fila')).toHaveValue(financeiro);
  await ruleEdit.getByLabel('Encaminhar para a fila').selectOption({ value: '' });
  await ruleEdit.getByRole('button', { name: 'Salvar Mensagem' }).click();
  await expect(ruleEdit).toBeHidden();
  await expect.poll(queueOf).toEqual([null]);

  // An agent reads the queues, without the buttons to change them.
  const {
    page: agent,
    context,
    errors,
  } = await joinAsMember(browser, page, {
    name: 'Beto Atendente',
    prefix: 'beto',
    role: 'agent',
    password: 'senha-do-beto',
  });
  await agent.goto('/filas');
  const agentCard = agent.getByTestId('queue-card').filter({ hasText: 'Financeiro' });
  await expect(agentCard).toContainText('24 horas');
  // An agent does not read the numbers: the card counts them.
  await expect(agentCard).toContainText('1 número');
  await expect(agent.getByRole('button', { name: 'Nova Fila' })).toHaveCount(0);
  await expect(agentCard.getByRole('button')).toHaveCount(0);
  await agent.screenshot(shot('queues-agent-1366'));
  expect(errors).toEqual([]);
  await context.close();

  // At 390 px: nothing wider than the screen, on the page and in the dialog.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/filas');
  await expect(card).toBeVisible();
  await expectNoSideScroll(page, '/filas');
  await page.screenshot(shot('queues-390'));
  await card.getByRole('button', { name: 'Editar Financeiro' }).click();
  await page.getByRole('dialog', { name: 'Editar fila' }).getByRole('switch', { name: 'Aberta 24 horas' }).click();
  const narrow = page.getByRole('dialog', { name: 'Editar fila' });
  const { scrollWidth, clientWidth } = await narrow.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
  }));
  expect(scrollWidth, 'dialog at 390 px').toBeLessThanOrEqual(clientWidth);
  await page.screenshot({ path: 'e2e/screenshots/queues-dialog-390.png' });
  await narrow.getByRole('button', { name: 'Cancelar' }).click();
  await page.setViewportSize({ width: 1366, height: 850 });

  // Delete, after the confirmation; its conversation stays, in no queue.
  await card.getByRole('button', { name: 'Excluir Financeiro' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Financeiro');
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText(queuesMsg.deleted).first()).toBeVisible();
  await expect(page.getByTestId('queue-card')).toHaveCount(0);
  await expect(page.getByText('Nenhuma fila ainda')).toBeVisible();
  await page.goto('/conversations');
  await expect(page.getByTestId('conversation-item').filter({ hasText: 'Carla Conta' })).toBeVisible();
  await expect(page.getByTestId('conversation-item-queue')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Fila', exact: true })).toHaveCount(0);
});
