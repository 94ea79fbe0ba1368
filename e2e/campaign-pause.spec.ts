import type { Page } from '@playwright/test';
import { expect, postJson, prepareSendingAccount, shot, signInCustomer, test } from './fixtures';

/**
 * Enviar asks first, with the recipients, the sending number and a forecast; Pausar, Retomar and
 * Cancelar act on the very next message. The witness is the simulator itself: what the simulated
 * number sent (GET /api/whatsapp/simulator/outbox, which exists only with the simulator driver).
 */

const RECIPIENTS = 10;
// 2 s between messages plus up to 1 s of jitter, as the user who reported it had.
const DELAY_S = 2;
// Longer than the longest gap plus "typing…": a message claimed before a click would be out by then.
const QUIET_MS = 4_500;

interface Sent {
  to: string;
  at: string;
}

/** What the simulated number has sent so far. */
async function outbox(page: Page): Promise<Sent[]> {
  const res = await page.request.get('/api/whatsapp/simulator/outbox');
  expect(res.ok(), 'simulator outbox').toBe(true);
  return (await res.json()).messages;
}

/** Contacts whose numbers all have WhatsApp in the simulator (none ends in 0), the pace, the number online. */
function prepareAccount(page: Page): Promise<string> {
  const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({
    name: `Pessoa ${i + 1} Pausa`,
    phone: `(21) 99876-${String(5401 + i * 2).padStart(4, '0')}`,
  }));
  return prepareSendingAccount(page, contacts, DELAY_S);
}

/** Clicks a card action and answers the time its request was acknowledged and what had been sent by then. */
async function act(page: Page, action: 'pause' | 'resume' | 'cancel', click: () => Promise<void>) {
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith(`/${action}`),
  );
  await click();
  const res = await answered;
  expect(res.status(), action).toBe(200);
  const at = Date.now();
  return { at, sent: (await outbox(page)).length };
}

test('Enviar asks first; after Pausar nothing goes out until Retomar, after Cancelar nothing at all', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInCustomer(page, { prefix: 'pausa', name: 'Paula Pausa' });
  const number = await prepareAccount(page);
  const created = await postJson(page.request, '/api/campaigns', {
    name: 'Liquidação de inverno',
    message: 'Oi {{primeiro_nome}}, a liquidação começou!',
    targetType: 'all',
  });
  expect(created.ok(), 'campaign').toBe(true);

  await page.goto('/campaigns');
  const card = page.getByTestId('campaign-card').filter({ hasText: 'Liquidação de inverno' });
  await expect(card.getByText('Rascunho')).toBeVisible();

  // Enviar asks first: how many, through which number, and when it should end.
  await card.getByRole('button', { name: /Enviar Campanha/ }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Enviar campanha?');
  const summary = confirm.getByTestId('start-confirm-summary');
  await expect(summary).toContainText(`${RECIPIENTS} destinatários pelo número ${number}`);
  // 10 messages 2 to 3 s apart: about half a minute.
  await expect(summary).toContainText('término previsto em menos de 1 min');
  await page.screenshot(shot('campaign-send-confirm-1366'));

  // Cancelling the question sends nothing.
  await confirm.getByRole('button', { name: 'Cancelar', exact: true }).click();
  await expect(confirm).toBeHidden();
  await page.waitForTimeout(1_500);
  expect(await outbox(page)).toEqual([]);
  await expect(card.getByText('Rascunho')).toBeVisible();

  // Confirmar sends.
  await card.getByRole('button', { name: /Enviar Campanha/ }).click();
  await expect(summary).toBeVisible();
  await confirm.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Campanha enviada com sucesso.').first()).toBeVisible();
  await expect(confirm).toBeHidden();

  // Pausar: nothing more, however long the pause.
  await expect.poll(async () => (await outbox(page)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  const paused = await act(page, 'pause', () => card.getByRole('button', { name: /Pausar/ }).click());
  await expect(card.getByText('Pausada')).toBeVisible();
  await page.waitForTimeout(QUIET_MS);
  const afterPause = await outbox(page);
  expect(afterPause.filter((m) => Date.parse(m.at) > paused.at)).toEqual([]);
  expect(afterPause).toHaveLength(paused.sent);
  await expect(card.getByTestId('counter-sent')).toHaveText(String(paused.sent));

  // Retomar: the messages go on.
  await act(page, 'resume', () => card.getByRole('button', { name: /Retomar/ }).click());
  await expect
    .poll(async () => (await outbox(page)).length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(paused.sent + 2);

  // Cancelar (confirmed): nothing more at all.
  await card.getByRole('button', { name: /^Cancelar/ }).click();
  const cancelDialog = page.getByRole('alertdialog');
  const cancelled = await act(page, 'cancel', () =>
    cancelDialog.getByRole('button', { name: 'Cancelar campanha' }).click(),
  );
  await expect(card.getByText('Cancelada')).toBeVisible();
  await page.waitForTimeout(QUIET_MS);
  const afterCancel = await outbox(page);
  expect(afterCancel.filter((m) => Date.parse(m.at) > cancelled.at)).toEqual([]);
  expect(afterCancel).toHaveLength(cancelled.sent);
  expect(afterCancel.length).toBeLessThan(RECIPIENTS);
  // Each recipient once, and the card counts exactly what went out.
  expect(new Set(afterCancel.map((m) => m.to)).size).toBe(afterCancel.length);
  await page.reload();
  await expect(card.getByTestId('counter-sent')).toHaveText(String(cancelled.sent));
  await page.screenshot(shot('campaign-cancelled-1366'));
});
