import type { Locator, Page } from '@playwright/test';
import { ADMIN, expect, login, test } from './fixtures';

// Issue "Small things a newcomer tripped over": at 390 px every tab, the landing page's 'Preços' and
// the header's 'Nova Campanha' must be visibly reachable, and no screen may scroll sideways.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** The top of the screen as the person sees it (not the whole page). */
const screen = (name: string) => ({ path: `e2e/screenshots/${name}.png` });

async function expectNoSideScroll(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what}: page width ${scrollWidth} > ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
}

/** Waits for lazily loaded pages and their data: no skeleton left. */
async function settled(page: Page) {
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.locator('main .animate-pulse')).toHaveCount(0, { timeout: 10_000 });
}

/** The element lies wholly inside the container's visible box (nothing cut off by its scrolling). */
async function expectWhollyInside(element: Locator, container: Locator, what: string) {
  const [box, outer] = await Promise.all([element.boundingBox(), container.boundingBox()]);
  if (!box || !outer) throw new Error(`${what}: not rendered`);
  expect(box.x, `${what}: cut off on the left`).toBeGreaterThanOrEqual(outer.x - 0.5);
  expect(box.x + box.width, `${what}: cut off on the right`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
  expect(outer.x + outer.width, `${what}: beyond the screen`).toBeLessThanOrEqual(390.5);
}

/** Clicks every tab of a tab bar in turn (scrolling it into view first), checking each opens whole. */
async function activateEveryTab(tablist: Locator, name: string) {
  const tabs = tablist.getByRole('tab');
  const count = await tabs.count();
  expect(count, `${name}: tabs`).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    const tab = tabs.nth(i);
    await tab.scrollIntoViewIfNeeded();
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(async () => expectWhollyInside(tab, tablist, `${name}: tab ${i + 1}`)).toPass({ timeout: 3_000 });
  }
}

test('landing: every section link shows at 390 px and Preços scrolls to the plans', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('landing-countdown')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Seções da página (celular)' });
  for (const name of ['Recursos', 'Como funciona', 'Dashboard', 'Preços']) {
    const link = nav.getByRole('link', { name, exact: true });
    await expect(link).toBeInViewport({ ratio: 1 });
    await expectWhollyInside(link, nav, name);
  }
  await expectNoSideScroll(page, 'landing');
  await page.screenshot(screen('mobile-landing-top-390'));

  await nav.getByRole('link', { name: 'Preços', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Escolha seu plano' })).toBeInViewport();
  await expect(page.locator('#precos')).toBeInViewport();
  await expect(page).toHaveURL(/#precos$/);
  // Not hidden under the sticky header once the smooth scroll ends.
  await expect(async () => {
    const header = await page.getByRole('banner').boundingBox();
    const heading = await page.getByRole('heading', { name: 'Escolha seu plano' }).boundingBox();
    expect(header && heading && heading.y >= header.y + header.height).toBe(true);
  }).toPass({ timeout: 5_000 });
});

test('header: Nova Campanha shows a label at 390 px, is named in full and opens its dialog', async ({ page }) => {
  await login(page, ADMIN.username, ADMIN.password);
  const header = page.getByRole('banner');
  const button = header.getByRole('button', { name: 'Nova Campanha', exact: true });
  await expect(button).toBeVisible();
  await expect(button.getByText('Nova', { exact: true })).toBeVisible();
  await expectWhollyInside(button, header, 'Nova Campanha');
  await expect(header.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  await page.screenshot({
    path: 'e2e/screenshots/mobile-header-390.png',
    clip: { x: 0, y: 0, width: 390, height: 64 },
  });

  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Criar Campanha' })).toBeVisible();
  await expectNoSideScroll(page, 'Nova Campanha dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('dashboard: the tab bar hints that it scrolls, and every tab is reached by touch and by keyboard', async ({
  page,
}) => {
  await login(page, ADMIN.username, ADMIN.password);
  const tablist = page.getByRole('tablist', { name: 'Seções do dashboard' });
  await expect(tablist).toBeVisible();
  await expectNoSideScroll(page, 'dashboard');
  // More tabs behind the right edge: a visible hint there, none on the left yet.
  await expect(page.getByTestId('tabs-scroll-end')).toBeVisible();
  await expect(page.getByTestId('tabs-scroll-start')).toHaveCount(0);
  await page.screenshot(screen('mobile-dashboard-tabs-390'));

  // The hint scrolls the bar.
  await page.getByTestId('tabs-scroll-end').click();
  await expect(page.getByTestId('tabs-scroll-start')).toBeVisible();

  const last = tablist.getByRole('tab', { name: 'Verificação' });
  await last.scrollIntoViewIfNeeded();
  await last.click();
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/tab=verification/);
  await expect(page.getByText('Verificação de WhatsApp', { exact: true })).toBeVisible();
  await expect(async () => expectWhollyInside(last, tablist, 'Verificação')).toPass({ timeout: 3_000 });
  await page.screenshot(screen('mobile-dashboard-last-tab-390'));

  // Keyboard: Radix's arrow keys move and activate, and the bar follows the focused tab.
  const tabs = tablist.getByRole('tab');
  await tabs.first().click();
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  const count = await tabs.count();
  for (let i = 1; i < count; i++) {
    await page.keyboard.press('ArrowRight');
    await expect(tabs.nth(i)).toBeFocused();
    await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
    await expect(async () => expectWhollyInside(tabs.nth(i), tablist, `tab ${i + 1}`)).toPass({ timeout: 3_000 });
  }

  // Opened from a link to the last tab, the bar starts scrolled to it.
  await page.goto('/dashboard?tab=verification');
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(async () => expectWhollyInside(last, tablist, 'Verificação from the URL')).toPass({
    timeout: 3_000,
  });

  await activateEveryTab(tablist, 'dashboard');
});

test('settings and admin: every tab is reached at 390 px', async ({ page }) => {
  await login(page, ADMIN.username, ADMIN.password);
  await page.goto('/settings');
  const settingsTabs = page.getByRole('tablist', { name: 'Seções das configurações' });
  await expect(settingsTabs).toBeVisible();
  await expect(page.getByTestId('tabs-scroll-end')).toBeVisible();
  await page.screenshot(screen('mobile-settings-tabs-390'));
  await activateEveryTab(settingsTabs, 'settings');
  await expectNoSideScroll(page, 'settings');

  await page.goto('/admin/users');
  const adminTabs = page.getByRole('tablist', { name: 'Filtrar usuários' });
  await expect(adminTabs).toBeVisible();
  await expect(adminTabs.getByRole('tab').first()).toContainText(/\d/);
  await expect(page.getByTestId('tabs-scroll-end')).toBeVisible();
  await page.screenshot(screen('mobile-admin-tabs-390'));
  await activateEveryTab(adminTabs, 'admin');
  await expectNoSideScroll(page, 'admin');
});

test('no screen scrolls sideways at 390 px', async ({ page }) => {
  test.setTimeout(120_000);
  for (const path of ['/', '/login', '/login?tab=register', '/demo', '/pagina-que-nao-existe']) {
    await page.goto(path);
    await page.waitForLoadState('load');
    await expect(page.locator('body')).not.toBeEmpty();
    await expectNoSideScroll(page, path);
  }

  await login(page, ADMIN.username, ADMIN.password);
  const pages = [
    '/dashboard',
    '/dashboard?tab=chatbot',
    '/dashboard?tab=whatsapp-api',
    '/dashboard?tab=analytics',
    '/dashboard?tab=verification',
    '/campaigns',
    '/chatbot',
    '/conversations',
    '/contacts',
    '/groups',
    '/reports',
    '/settings',
    '/settings?tab=notificacoes',
    '/settings?tab=whatsapp',
    '/settings?tab=seguranca',
    '/settings?tab=planos',
    '/admin/users',
  ];
  for (const path of pages) {
    await page.goto(path);
    await settled(page);
    await expectNoSideScroll(page, path);
  }
});
