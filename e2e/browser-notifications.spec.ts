import type { BrowserContext, Page } from '@playwright/test';
import { expect, postJson, shot, signInCustomer, test } from './fixtures';

/**
 * 'Notificações no navegador' and the browser's permission. Headless Chromium starts each context at
 * 'default'; a prompt nobody granted answers 'denied' (what a refusal looks like), and
 * `context.grantPermissions` makes it 'granted'.
 */

/** web/lib/browser-notifications.ts */
const NEEDS_PERMISSION = 'Ligadas na sua conta, mas o navegador ainda não deu permissão';
const DENIED = 'Bloqueadas neste navegador. Para permitir, clique no cadeado';
const ON = 'Ativas neste navegador.';

const row = (page: Page) => page.getByTestId('browser-notifications');
const pushSwitch = (page: Page) => page.getByRole('switch', { name: 'Notificações no navegador' });
const allowButton = (page: Page) => page.getByRole('button', { name: 'Permitir notificações' });

/**
 * Counts the site's calls to Notification.requestPermission (the browser's prompt) and answers the
 * prompt as the person would: 'grant' allows (the test grants the permission at that moment),
 * 'deny' leaves it to headless Chromium, which refuses.
 */
async function answerPrompts(page: Page, context: BrowserContext, answer: 'grant' | 'deny') {
  await page.exposeFunction('__answerPrompt', async () => {
    if (answer === 'grant') await context.grantPermissions(['notifications']);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __prompts: number; __answerPrompt: () => Promise<void> };
    w.__prompts = 0;
    const original = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = async () => {
      w.__prompts += 1;
      await w.__answerPrompt();
      return original();
    };
  });
  return () => page.evaluate(() => (window as unknown as { __prompts: number }).__prompts);
}

async function openNotificationSettings(page: Page) {
  await page.goto('/settings?tab=notificacoes');
  await expect(pushSwitch(page)).toBeVisible({ timeout: 15_000 });
}

const saved = async (page: Page) => (await page.request.get('/api/settings/notifications')).json();

test('on by default, never asked: no prompt on arrival, a clear button asks, and granting turns it on', async ({
  page,
  context,
}) => {
  await signInCustomer(page, { prefix: 'pushok', name: 'Paula Push' });
  const prompts = await answerPrompts(page, context, 'grant');
  await openNotificationSettings(page);
  expect((await saved(page)).pushNotifications).toBe(true);
  expect(await page.evaluate(() => Notification.permission)).toBe('default');

  // The page does not prompt by itself (browsers ignore or penalise a prompt without a click).
  expect(await prompts()).toBe(0);
  await expect(pushSwitch(page)).toBeChecked();
  await expect(row(page)).toContainText(NEEDS_PERMISSION);
  await expect(allowButton(page)).toBeVisible();
  await page.screenshot(shot('browser-notifications-ask-1366'));

  // The button asks; the person allows it in the browser's prompt.
  await allowButton(page).click();
  await expect.poll(prompts).toBe(1);
  await expect(row(page)).toContainText(ON);
  await expect(allowButton(page)).toHaveCount(0);
  await expect(pushSwitch(page)).toBeChecked();
  await expect(pushSwitch(page)).toBeEnabled();

  // Off and on again needs no prompt once allowed; the preference is saved with the others.
  await pushSwitch(page).click();
  await expect(pushSwitch(page)).not.toBeChecked();
  await page.getByRole('button', { name: 'Salvar preferências' }).click();
  await expect.poll(async () => (await saved(page)).pushNotifications).toBe(false);
  await pushSwitch(page).click();
  await expect(pushSwitch(page)).toBeChecked();
  await page.getByRole('button', { name: 'Salvar preferências' }).click();
  await expect.poll(async () => (await saved(page)).pushNotifications).toBe(true);
  expect(await prompts()).toBe(1);
});

test('a refusal: the switch is off and unavailable, with how to allow it in the browser', async ({ page, context }) => {
  await signInCustomer(page, { prefix: 'pushno', name: 'Pedro Push' });
  const prompts = await answerPrompts(page, context, 'deny');
  await openNotificationSettings(page);
  await allowButton(page).click();
  await expect.poll(prompts).toBe(1);
  // Headless Chromium answers the prompt with 'denied', as a person who clicks Bloquear.
  await expect.poll(() => page.evaluate(() => Notification.permission)).toBe('denied');
  await expect(pushSwitch(page)).not.toBeChecked();
  await expect(pushSwitch(page)).toBeDisabled();
  await expect(row(page)).toContainText(DENIED);
  await expect(row(page)).not.toContainText(ON);
  await expect(allowButton(page)).toHaveCount(0);
  await page.screenshot(shot('browser-notifications-denied-1366'));

  // So it stays after a reload.
  await openNotificationSettings(page);
  await expect(pushSwitch(page)).not.toBeChecked();
  await expect(pushSwitch(page)).toBeDisabled();
  await expect(row(page)).toContainText(DENIED);
});

test('turning the switch on asks the browser, and stays off when refused', async ({ page, context }) => {
  await signInCustomer(page, { prefix: 'pushsw', name: 'Priscila Push' });
  const prompts = await answerPrompts(page, context, 'deny');
  await openNotificationSettings(page);
  // Switched off and saved earlier: no button, nothing claimed.
  await pushSwitch(page).click();
  await expect(pushSwitch(page)).not.toBeChecked();
  await expect(allowButton(page)).toHaveCount(0);
  await expect(row(page)).not.toContainText(NEEDS_PERMISSION);
  expect(await prompts()).toBe(0);

  await pushSwitch(page).click();
  await expect.poll(prompts).toBe(1);
  await expect(pushSwitch(page)).not.toBeChecked();
  await expect(pushSwitch(page)).toBeDisabled();
  await expect(row(page)).toContainText(DENIED);
});

test('allowed in the browser beforehand: on, no button, no prompt', async ({ page, context }) => {
  await signInCustomer(page, { prefix: 'pushpre', name: 'Patrícia Push' });
  await context.grantPermissions(['notifications']);
  const prompts = await answerPrompts(page, context, 'grant');
  await openNotificationSettings(page);
  await expect(pushSwitch(page)).toBeChecked();
  await expect(row(page)).toContainText(ON);
  await expect(allowButton(page)).toHaveCount(0);
  expect(await prompts()).toBe(0);
});

/** Records the browser notifications the page shows (the real ones still go to the browser). */
async function recordShown(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __shown: Array<{ title: string; body?: string }> };
    w.__shown = [];
    const Original = window.Notification;
    class Recording extends Original {
      constructor(title: string, options?: NotificationOptions) {
        w.__shown.push({ title, body: options?.body });
        super(title, options);
      }
    }
    Object.defineProperty(Recording, 'permission', { get: () => Original.permission });
    Object.defineProperty(Recording, 'requestPermission', { value: Original.requestPermission.bind(Original) });
    window.Notification = Recording as unknown as typeof Notification;
  });
  return () => page.evaluate(() => (window as unknown as { __shown: Array<{ title: string }> }).__shown);
}

/** A contact asks the simulated WhatsApp number for a person: the account gets a notification. */
async function handoffNotification(page: Page, from: string) {
  expect((await postJson(page.request, '/api/whatsapp/connect', {})).ok()).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get('/api/whatsapp-session')).json()).isConnected, { timeout: 20_000 })
    .toBe(true);
  const inbound = await postJson(page.request, '/api/whatsapp/simulator/inbound', {
    from,
    text: 'quero falar com um atendente',
  });
  expect(inbound.ok()).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get('/api/notifications/unread-count')).json()).unread, {
      timeout: 15_000,
    })
    .toBe(1);
}

for (const allowed of [true, false]) {
  test(`a new notification shows in the browser only where it is allowed (${allowed ? 'granted' : 'never asked'})`, async ({
    page,
    context,
  }) => {
    await signInCustomer(page, { prefix: allowed ? 'pushfire' : 'pushquiet', name: 'Fábio Push' });
    if (allowed) await context.grantPermissions(['notifications']);
    const prompts = await answerPrompts(page, context, 'deny');
    const shown = await recordShown(page);
    await page.clock.install();
    await page.goto('/dashboard');
    await expect(page.getByTestId('notifications-bell')).toBeVisible({ timeout: 15_000 });

    await handoffNotification(page, allowed ? '5521998760011' : '5521998760022');
    // The bell polls every 30 s.
    await page.clock.fastForward('00:31');
    await expect(page.getByTestId('notifications-badge')).toBeVisible({ timeout: 15_000 });
    if (allowed) {
      await expect.poll(shown).toEqual([expect.objectContaining({ title: 'Atendimento humano solicitado' })]);
    } else {
      expect(await shown()).toEqual([]);
    }
    // The page never prompts by itself.
    expect(await prompts()).toBe(0);
  });
}
