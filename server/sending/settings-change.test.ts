import { describe, expect, it } from 'vitest';
import { contacts } from '../db/schema';
import { simulatorAppPerFile } from '../testing/app-per-file';
import { createAndSendCampaign, waitForCampaign } from '../testing/campaigns';
import { sendingSettings } from '../testing/sending-settings';
import { apiCall, connectSimulator, newCustomer, setAccountSettings, waitFor } from '../testing/test-app';
import type { SimulatorDriver } from '../whatsapp/simulator/simulator-driver';

/**
 * A change of the sending settings reaches the send loop at once: a campaign waiting for the daily
 * limit goes on as soon as the limit is raised (not when its minute-long wait ends), and a lowered
 * limit holds from the next message. Real pacing (no time scale), so the minute is a real minute.
 */
const ctx = simulatorAppPerFile({ deliveredMs: 30, readMs: 60 }, { timeScale: undefined });

describe('sending settings changed during a campaign', () => {
  it('a raised daily limit wakes the waiting campaign at once; a lowered one holds from the next message', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await setAccountSettings(ctx, user.id, { respectBusinessHours: false, messageDelay: 1, dailyLimit: 1 });
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    await ctx.database.db.insert(contacts).values(
      Array.from({ length: 4 }, (_, i) => ({
        userId: user.id,
        name: `Cliente ${i + 1}`,
        phone: `+55219876${String(54301 + i * 2).padStart(5, '0')}`,
      })),
    );
    const id = await createAndSendCampaign(ctx, cookie);
    await waitForCampaign(ctx, cookie, id, (c) => c.status === 'in_progress' && c.waitingReason === 'daily_limit');
    expect(driver.outbox).toHaveLength(1);

    // Raised: the next message goes within a few seconds (the wait would otherwise last a minute).
    const raisedAt = Date.now();
    const raised = await apiCall(ctx, 'PUT', '/api/settings/whatsapp', {
      cookie,
      payload: sendingSettings('personal', 2),
    });
    expect(raised.statusCode, raised.body).toBe(200);
    await waitFor(
      () => Promise.resolve(driver.outbox.length),
      (n) => n >= 2,
      20_000,
      20,
    );
    expect(Date.now() - raisedAt).toBeLessThan(20_000);
    await waitForCampaign(ctx, cookie, id, (c) => c.waitingReason === 'daily_limit' && c.messagesSent === 2);

    // Lowered back while waiting: nothing more goes out today.
    const lowered = await apiCall(ctx, 'PUT', '/api/settings/whatsapp', {
      cookie,
      payload: sendingSettings('personal', 1),
    });
    expect(lowered.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(driver.outbox).toHaveLength(2);
  });
});
