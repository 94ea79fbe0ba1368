import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { campaignMsg } from '../../contract/campaigns';
import { campaignRecipients, campaigns, contacts } from '../db/schema';
import { appPerFile } from '../testing/app-per-file';
import { insertConnection } from '../testing/connections';
import { ConnectedTestDriver } from '../testing/fake-driver';
import { apiCall, createTestApp, newCustomer, setAccountSettings, waitFor } from '../testing/test-app';
import { type Driver, DriverError, type DriverProvider, type OutgoingMessage } from '../whatsapp/driver';
import { BURST_FAILURES, BURST_WINDOW, MAX_ATTEMPTS } from './dispatcher';
import { BLOCK_REASONS, classifyFailure } from './failures';

/** A driver whose every send does what the test scripted for its recipient. */
class ScriptedDriver extends ConnectedTestDriver {
  readonly kind: 'simulator' | 'cloud' | 'baileys';
  /** Meta's messaging limit this number reports (Cloud API), or null when unknown. */
  limit: number | null = null;
  async messagingLimit() {
    return this.limit;
  }
  readonly sends: Array<{ to: string; message: OutgoingMessage }> = [];
  /** Every call in order: 'check:<numbers>' or 'send:<to>'. */
  readonly calls: string[] = [];
  /** Which numbers have WhatsApp when checked. */
  hasWhatsapp: (number: string) => boolean = () => true;
  private seq = 0;
  constructor(
    kind: 'simulator' | 'cloud' | 'baileys',
    private readonly script: (to: string, attempt: number) => Error | null,
  ) {
    super();
    this.kind = kind;
  }
  async send(to: string, message: OutgoingMessage) {
    const attempt = this.sends.filter((s) => s.to === to).length + 1;
    this.sends.push({ to, message });
    this.calls.push(`send:${to}`);
    const err = this.script(to, attempt);
    if (err) throw err;
    return { providerMessageId: `scripted-${++this.seq}` };
  }
  async checkNumbers(numbers: string[]) {
    this.calls.push(`check:${numbers.join(',')}`);
    return numbers.map((number) => ({ number, exists: this.hasWhatsapp(number) }));
  }
}

class ScriptedDrivers implements DriverProvider {
  readonly byUser = new Map<string, Driver>();
  async get(userId: string) {
    return this.byUser.get(userId) ?? null;
  }
}

const drivers = new ScriptedDrivers();
const ctx = appPerFile(() => createTestApp({}, undefined, { drivers, dispatcher: { tickMs: 20, timeScale: 0.0001 } }));

async function scenario(
  n: number,
  kind: 'simulator' | 'cloud' | 'baileys',
  script: (to: string, attempt: number) => Error | null,
) {
  const { user, cookie } = await newCustomer(ctx);
  await setAccountSettings(ctx, user.id, { respectBusinessHours: false });
  const driver = new ScriptedDriver(kind, script);
  drivers.byUser.set(user.id, driver);
  // The account's number (the scripted driver stands for it).
  await insertConnection(ctx.database.db, user.id, kind === 'cloud' ? 'cloud' : 'personal');
  await ctx.database.db.insert(contacts).values(
    Array.from({ length: n }, (_, i) => ({
      userId: user.id,
      name: `Contato ${i}`,
      phone: `+55219876${String(50001 + i * 2).padStart(5, '0')}`,
    })),
  );
  const created = await apiCall(ctx, 'POST', '/api/campaigns', {
    cookie,
    payload: { name: 'Teste', message: 'Oi {{nome}}', targetType: 'contacts' },
  });
  const id = created.json().id as string;
  expect((await apiCall(ctx, 'POST', `/api/campaigns/${id}/send`, { cookie })).statusCode).toBe(200);
  const rows = () => ctx.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));
  const campaign = async () => (await ctx.database.db.select().from(campaigns).where(eq(campaigns.id, id)))[0];
  return { id, driver, rows, campaign };
}

describe('number checks on a personal number', () => {
  it('checks each never-checked contact in its own turn right before its send, and skips one without WhatsApp', async () => {
    const absent = '5521987650003';
    const s = await scenario(4, 'baileys', () => null);
    s.driver.hasWhatsapp = (n) => n !== absent;
    const done = await waitFor(s.campaign, (c) => c.status === 'completed', 8000);
    expect(done.status).toBe('completed');
    const rows = await s.rows();
    expect(rows.find((r) => r.recipient === absent)).toMatchObject({
      status: 'skipped',
      error: campaignMsg.reason.noWhatsapp,
    });
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(3);
    expect(s.driver.sends.map((x) => x.to)).not.toContain(absent);
    // One number per check, never a bulk lookup, each followed by its send.
    const sends = s.driver.calls.filter((c) => c.startsWith('send:'));
    expect(s.driver.calls.filter((c) => c.startsWith('check:')).every((c) => !c.includes(','))).toBe(true);
    for (const send of sends) {
      const i = s.driver.calls.indexOf(send);
      expect(s.driver.calls[i - 1]).toBe(`check:${send.slice(5)}`);
    }
    const checked = await ctx.database.db
      .select({ phone: contacts.phone, active: contacts.isWhatsappActive })
      .from(contacts)
      .where(eq(contacts.userId, rows[0].userId));
    expect(checked.find((c) => c.phone === `+${absent}`)?.active).toBe(false);
    expect(checked.filter((c) => c.active === true)).toHaveLength(3);
  });
});

describe('failures while sending', () => {
  it('retries a transient failure with back-off and sends once it passes', async () => {
    const s = await scenario(2, 'simulator', (_to, attempt) =>
      attempt < 3 ? new DriverError('transient', 'tempo esgotado') : null,
    );
    const done = await waitFor(s.campaign, (c) => c.status === 'completed', 8000);
    expect(done.status).toBe('completed');
    const rows = await s.rows();
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 3],
      ['sent', 3],
    ]);
    expect(s.driver.sends).toHaveLength(6);
  });

  it(`fails a recipient after ${MAX_ATTEMPTS} transient failures, with the reason`, async () => {
    const s = await scenario(1, 'simulator', () => new DriverError('transient', 'servidor indisponível'));
    await waitFor(s.campaign, (c) => c.status === 'failed', 8000);
    const [row] = await s.rows();
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(MAX_ATTEMPTS);
    expect(row.error).toContain('servidor indisponível');
    expect(s.driver.sends).toHaveLength(MAX_ATTEMPTS);
  });

  it('pauses the campaign on a burst of failures, telling why', async () => {
    const s = await scenario(30, 'simulator', () => new DriverError('permanent', 'recusado'));
    const paused = await waitFor(s.campaign, (c) => c.status === 'paused', 8000);
    expect(paused.pauseReason).toBe(campaignMsg.pauseReason.burst(BURST_FAILURES, BURST_WINDOW));
    await new Promise((r) => setTimeout(r, 150));
    // It stopped at the burst: what was not tried is still queued for a resume.
    expect(s.driver.sends.length).toBe(BURST_FAILURES);
    const rows = await s.rows();
    expect(rows.filter((r) => r.status === 'queued')).toHaveLength(30 - BURST_FAILURES);
  });

  it('pauses at once on WhatsApp’s spam limit (131048) and keeps the recipient queued', async () => {
    const s = await scenario(3, 'cloud', () => new DriverError('permanent', 'spam rate limit', undefined, 131048));
    const paused = await waitFor(s.campaign, (c) => c.status === 'paused', 8000);
    expect(paused.pauseReason).toBe(campaignMsg.pauseReason.spam);
    const rows = await s.rows();
    expect(rows.filter((r) => r.status === 'failed')).toHaveLength(0);
  });

  it('holds back a recipient of Meta’s marketing cap (131049) for 24 hours', async () => {
    const s = await scenario(2, 'cloud', (to) =>
      to.endsWith('50001') ? new DriverError('permanent', 'marketing cap', undefined, 131049) : null,
    );
    await waitFor(s.rows, (rows) => rows.some((r) => r.status === 'sent') && rows.some((r) => r.error !== null), 8000);
    const held = (await s.rows()).find((r) => r.recipient.endsWith('50001'));
    expect(held?.status).toBe('queued');
    expect((held?.dueAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect((await s.campaign()).status).toBe('sending');
  });

  it('fails a recipient outside the 24-hour window (131047) with the reason in Portuguese', async () => {
    const s = await scenario(
      1,
      'cloud',
      () => new DriverError('template_required', 'Re-engagement message', undefined, 131047),
    );
    await waitFor(s.campaign, (c) => c.status === 'failed', 8000);
    const [row] = await s.rows();
    expect(row.error).toMatch(/janela de 24 horas/);
  });

  it('keeps to Meta’s messaging limit on the Cloud API and says why it waits', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await setAccountSettings(ctx, user.id, { respectBusinessHours: false });
    const driver = new ScriptedDriver('cloud', () => null);
    driver.limit = 3;
    drivers.byUser.set(user.id, driver);
    await insertConnection(ctx.database.db, user.id, 'cloud');
    await ctx.database.db
      .insert(contacts)
      .values(
        Array.from({ length: 5 }, (_, i) => ({ userId: user.id, name: `C ${i}`, phone: `+55219876${50101 + i * 2}` })),
      );
    const created = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie,
      payload: { name: 'Limite', message: 'Oi', targetType: 'contacts' },
    });
    await apiCall(ctx, 'POST', `/api/campaigns/${created.json().id}/send`, { cookie });
    const waiting = await waitFor(
      async () => (await apiCall(ctx, 'GET', `/api/campaigns/${created.json().id}`, { cookie })).json(),
      (c) => c.waitingReason === 'messaging_limit',
      8000,
    );
    expect(waiting.status).toBe('in_progress');
    expect(waiting.messagesSent).toBe(3);
    expect(driver.sends).toHaveLength(3);
  });

  it('sends many in flight on the Cloud API, each recipient once', async () => {
    const s = await scenario(60, 'cloud', () => null);
    await waitFor(s.campaign, (c) => c.status === 'completed', 8000);
    expect(s.driver.sends).toHaveLength(60);
    expect(new Set(s.driver.sends.map((x) => x.to)).size).toBe(60);
  });
});

describe('what each provider error means', () => {
  it('maps codes to actions', () => {
    expect(classifyFailure(new DriverError('transient', 'x', 60_000, 130429))).toMatchObject({
      action: 'retry',
      retryAfterMs: 60_000,
    });
    // A pair rate limit: retried on a number alone; a campaign with other numbers moves on without it.
    expect(classifyFailure(new DriverError('transient', 'x', undefined, 131056))).toMatchObject({
      action: 'retry',
      restriction: '131056',
    });
    expect(classifyFailure(new DriverError('permanent', 'x', undefined, 131026))).toMatchObject({ action: 'fail' });
    // 131050, the contact stopped marketing messages: a permanent failure whatever the driver called it,
    // with the pt-BR reason the numbers' health counts as a block.
    for (const kind of ['permanent', 'transient'] as const) {
      expect(classifyFailure(new DriverError(kind, 'x', undefined, 131050))).toEqual({
        action: 'fail',
        reason: BLOCK_REASONS[1],
      });
    }
    expect(BLOCK_REASONS[1]).toMatch(/marketing/);
    expect(classifyFailure(new DriverError('permanent', 'Param mismatch', undefined, 132000)).action).toBe('fail');
    expect(classifyFailure(new DriverError('transient', 'x', undefined, 463))).toEqual({
      action: 'pause',
      reason: campaignMsg.pauseReason.timeLock,
      restriction: '463',
    });
    expect(classifyFailure(new DriverError('auth', 'token', undefined, 190)).action).toBe('pause');
    expect(classifyFailure(new DriverError('transient', 'WhatsApp desconectado')).action).toBe('offline');
    expect(classifyFailure(new Error('boom')).action).toBe('retry');
  });
});
