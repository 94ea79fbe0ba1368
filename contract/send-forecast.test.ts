import { describe, expect, it } from 'vitest';
import { forecastSend, type SendForecastInput } from './send-forecast';

// São Paulo is UTC−3 all year (no daylight saving since 2019). 15/01/2025 is a Wednesday.
const WED_10H = new Date('2025-01-15T13:00:00Z');
const FRI_17H59 = new Date('2025-01-17T20:59:00Z');
const SAT_NOON = new Date('2025-01-18T15:00:00Z');
const MON_9H = new Date('2025-01-20T12:00:00Z').getTime();

const base: SendForecastInput = {
  recipients: 57,
  channel: 'personal',
  messageDelay: 2,
  dailyLimit: 1000,
  sentToday: 0,
  respectBusinessHours: false,
  businessStart: '09:00',
  businessEnd: '18:00',
  businessDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
  now: WED_10H,
};
const hours = { respectBusinessHours: true } as const;
const at = (f: { finishAt: Date | null }) => f.finishAt?.getTime();

describe('forecastSend', () => {
  it('a personal number: one message per mean gap (the delay plus half the jitter)', () => {
    // 2 s + 0.5 s of mean jitter, 57 times.
    const f = forecastSend(base);
    expect(at(f)).toBe(WED_10H.getTime() + 57 * 2_500);
    expect(f).toMatchObject({ waitsForDailyLimit: false, waitsForBusinessHours: false });
    // A 60 s delay: 60 s + 9 s of mean jitter.
    expect(at(forecastSend({ ...base, messageDelay: 60, recipients: 10 }))).toBe(WED_10H.getTime() + 10 * 69_000);
  });

  it('the Cloud API: the number’s throughput, 80 a second unless told', () => {
    const cloud = { ...base, channel: 'cloud', recipients: 10_000, dailyLimit: 100_000 } as const;
    expect(at(forecastSend(cloud))).toBe(WED_10H.getTime() + 125_000);
    expect(at(forecastSend({ ...cloud, cloudThroughput: 1000 }))).toBe(WED_10H.getTime() + 10_000);
    // The daily limit holds on the Cloud API too: 1,000 today, 1,000 tomorrow.
    const capped = forecastSend({ ...cloud, recipients: 2_000, dailyLimit: 1000 });
    expect(capped.waitsForDailyLimit).toBe(true);
    expect(at(capped)).toBe(new Date('2025-01-16T03:00:00Z').getTime() + 12_500);
  });

  it('nothing to send ends now', () => {
    expect(at(forecastSend({ ...base, recipients: 0 }))).toBe(WED_10H.getTime());
  });

  it('waits for the daily limit to start over at midnight, counting what went out today', () => {
    // 5 left today, 20 tomorrow, the last 5 the day after.
    const f = forecastSend({ ...base, recipients: 30, dailyLimit: 20, sentToday: 15 });
    expect(f.waitsForDailyLimit).toBe(true);
    expect(at(f)).toBe(new Date('2025-01-17T03:00:00Z').getTime() + 5 * 2_500);
    // Within today's budget: no wait.
    expect(forecastSend({ ...base, recipients: 5, dailyLimit: 20, sentToday: 15 }).waitsForDailyLimit).toBe(false);
  });

  it('sends only within business hours: what does not fit on Friday goes on Monday at 09:00', () => {
    // One minute left on Friday: 24 messages of 2.5 s, the other 76 from Monday 09:00.
    const f = forecastSend({ ...base, ...hours, recipients: 100, now: FRI_17H59 });
    expect(f.waitsForBusinessHours).toBe(true);
    expect(at(f)).toBe(MON_9H + 76 * 2_500);
    // Started on Saturday: Monday 09:00.
    const weekend = forecastSend({ ...base, ...hours, now: SAT_NOON });
    expect(weekend.waitsForBusinessHours).toBe(true);
    expect(at(weekend)).toBe(MON_9H + 57 * 2_500);
    // Within hours and fitting: as if there were none.
    expect(at(forecastSend({ ...base, ...hours }))).toBe(WED_10H.getTime() + 57 * 2_500);
  });

  it('business hours and the daily limit together', () => {
    // 10 a day, 25 messages, Friday afternoon: 10 on Friday, 10 on Monday, 5 on Tuesday from 09:00.
    const f = forecastSend({
      ...base,
      ...hours,
      recipients: 25,
      dailyLimit: 10,
      now: new Date('2025-01-17T17:00:00Z'),
    });
    expect(f).toMatchObject({ waitsForDailyLimit: true, waitsForBusinessHours: true });
    expect(at(f)).toBe(MON_9H + 86_400_000 + 5 * 2_500);
  });

  it('no forecast when business hours never open', () => {
    expect(forecastSend({ ...base, ...hours, businessDays: [] }).finishAt).toBeNull();
  });
});
