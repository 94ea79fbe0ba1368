import { describe, expect, it } from 'vitest';
import type { Campaign, StartForecast } from '../../../contract/campaigns';
import { saoPauloParts } from '../../../contract/sao-paulo-time';
import { simulatorAppPerFile } from '../../testing/app-per-file';
import {
  apiCall,
  connectSimulator,
  newCustomer,
  newCustomerWithCalls,
  setAccountSettings,
  waitFor,
} from '../../testing/test-app';
import { type ForecastFacts, forecastCampaign } from './campaign-forecast';

/** Friday 28 Nov 2025, 17:55 in São Paulo (UTC−3). */
const FRIDAY_1755 = new Date('2025-11-28T20:55:00Z');

function facts(over: Partial<ForecastFacts> = {}, account: Partial<ForecastFacts['account']> = {}): ForecastFacts {
  return {
    now: FRIDAY_1755,
    channel: 'personal',
    account: {
      messageDelay: 2,
      dailyLimit: 1000,
      respectBusinessHours: true,
      businessStart: '09:00',
      businessEnd: '18:00',
      businessDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
      ...account,
    },
    cloudThroughput: 80,
    numbers: [{ id: 'n1', isDefault: true, paused: false, stopReason: null, settings: {} }],
    sentToday: new Map(),
    ...over,
  };
}

const local = (iso: string | null) => {
  if (!iso) return null;
  const p = saoPauloParts(new Date(iso));
  return `${p.weekday} ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
};

describe('forecastCampaign', () => {
  it('keeps to business hours: 303 messages at 17:55 on a Friday end on Monday morning, not at 18:07', () => {
    const f = forecastCampaign(facts(), { recipients: 303 });
    expect(f.waitsForBusinessHours).toBe(true);
    expect(f.waitsForDailyLimit).toBe(false);
    // 5 minutes on Friday (2.5 s a message: about 120), the rest from 09:00 on Monday.
    expect(local(f.finishAt)).toMatch(/^monday 09:0\d$/);
    expect(f).toMatchObject({ businessStart: '09:00', businessEnd: '18:00', dailyLimit: 1000, channel: 'personal' });
  });

  it('keeps to the daily limit, counting what the number sent today', () => {
    const open = facts({ sentToday: new Map([['n1', 95]]) }, { respectBusinessHours: false, dailyLimit: 100 });
    const f = forecastCampaign(open, { recipients: 10 });
    expect(f.waitsForDailyLimit).toBe(true);
    // Five today, five after midnight.
    expect(local(f.finishAt)).toBe('saturday 00:00');
  });

  it('reads the number’s own settings, and adds up several numbers', () => {
    const own = facts({
      numbers: [
        { id: 'n1', isDefault: true, paused: false, stopReason: null, settings: { respectBusinessHours: false } },
        { id: 'n2', isDefault: false, paused: false, stopReason: null, settings: {} },
      ],
    });
    // The default number keeps no hours of its own: it finishes tonight.
    expect(local(forecastCampaign(own, { recipients: 303 }).finishAt)).toBe('friday 18:07');
    // Two numbers side by side halve the time; the account's hours still hold.
    const both = forecastCampaign(own, { recipients: 200, connectionIds: ['n1', 'n2'] });
    expect(both.waitsForBusinessHours).toBe(false);
    expect(local(both.finishAt)).toBe('friday 18:00');
  });
});

describe('one forecast for the confirmation and the card', () => {
  const ctx = simulatorAppPerFile();

  it('the card of a campaign waiting for business hours says the end the confirmation said', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx);
    // Business hours only on the day after tomorrow: closed now, whatever the time of the run.
    const closedDay = saoPauloParts(new Date(Date.now() + 2 * 86_400_000)).weekday;
    await setAccountSettings(ctx, user.id, {
      respectBusinessHours: true,
      businessStart: '09:00',
      businessEnd: '18:00',
      businessDays: [closedDay],
    });
    await connectSimulator(ctx, user.id, cookie);
    for (const phone of ['21998762001', '21998762002', '21998762003']) {
      expect((await call('POST', '/api/contacts', { name: `Ana ${phone.slice(-1)}`, phone })).statusCode).toBe(200);
    }
    const created = await call('POST', '/api/campaigns', { name: 'Promo', message: 'Oi!', targetType: 'contacts' });
    const id = created.json().id as string;

    const asked = await call('GET', `/api/campaigns/${id}/forecast`);
    expect(asked.statusCode, asked.body).toBe(200);
    const { audience, forecast } = asked.json() as StartForecast;
    expect(audience.recipients).toBe(3);
    expect(forecast.waitsForBusinessHours).toBe(true);
    expect(local(forecast.finishAt)).toMatch(new RegExp(`^${closedDay} 09:0\\d$`));

    expect((await call('POST', `/api/campaigns/${id}/send`)).statusCode).toBe(200);
    const card = await waitFor(
      async () => (await call('GET', `/api/campaigns/${id}`)).json() as Campaign,
      (c) => c.waitingReason === 'outside_hours',
      5000,
    );
    // Closed until the same opening, with the same three messages: the very same instant.
    expect(card.expectedFinishAt).toBe(forecast.finishAt);
    const listed = ((await call('GET', '/api/campaigns')).json() as Campaign[]).find((c) => c.id === id);
    expect(listed?.expectedFinishAt).toBe(forecast.finishAt);
  });

  it('answers 404 for another account’s campaign', async () => {
    const a = await newCustomer(ctx);
    const b = await newCustomer(ctx);
    const created = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie: a.cookie,
      payload: { name: 'Minha', message: 'Oi!', targetType: 'all' },
    });
    const res = await apiCall(ctx, 'GET', `/api/campaigns/${created.json().id}/forecast`, { cookie: b.cookie });
    expect(res.statusCode).toBe(404);
  });
});
