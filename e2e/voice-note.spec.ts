import config from '../playwright.config';
import { expect, expectOk, postJson, prepareSendingAccount, signInCustomer, test } from './fixtures';

// Chromium's fake microphone (a tone), allowed without asking: MediaRecorder records it as WebM/Opus.
const chromium = config.use?.launchOptions ?? {};
test.use({
  permissions: ['microphone'],
  launchOptions: {
    ...chromium,
    args: [...(chromium.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

const ANA = '5521998776631';

interface Sent {
  to: string;
  kind?: string;
  mediaKind?: string;
  mimeType?: string;
  voice?: boolean;
  mediaBytes?: number;
}

/**
 * A voice note recorded in the page reaches WhatsApp as one: the browser records WebM/Opus, the
 * server remuxes it into OGG/Opus, and the simulated number sends it as a voice note (PTT).
 */
test('a voice note recorded in Conversas reaches WhatsApp as a voice note', async ({ page }) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'voz', name: 'Vera Voz' });
  await prepareSendingAccount(page, []);
  await expectOk(postJson(page.request, '/api/bot-config', { isEnabled: false }), 'bot off');
  await expectOk(postJson(page.request, '/api/whatsapp/simulator/inbound', { from: ANA, text: 'Oi!' }), 'inbound');

  await page.goto(`/conversations?phone=${ANA}`);
  const record = page.getByRole('button', { name: 'Gravar mensagem de voz' });
  await expect(record).toBeVisible({ timeout: 15_000 });
  await record.click();
  const stop = page.getByRole('button', { name: 'Parar gravação' });
  await expect(stop).toBeVisible();
  await page.waitForTimeout(2_500);
  await stop.click();
  const attachment = page.getByTestId('composer-attachment');
  await expect(attachment).toContainText('.ogg', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Enviar' }).click();

  await expect
    .poll(
      async () => {
        const res = await page.request.get('/api/whatsapp/simulator/outbox');
        const sent = (await res.json()) as { messages?: Sent[] } | Sent[];
        const list = Array.isArray(sent) ? sent : (sent.messages ?? []);
        return list.find((m) => m.to === ANA && m.kind === 'media') ?? null;
      },
      { timeout: 15_000 },
    )
    .toMatchObject({ mediaKind: 'audio', mimeType: 'audio/ogg', voice: true });

  // The conversation shows it as the attendant's voice note, with a player.
  const voice = page.getByTestId('message-audio').last();
  await expect(voice).toBeVisible({ timeout: 15_000 });
  await expect(voice).toContainText('Mensagem de voz');
});
