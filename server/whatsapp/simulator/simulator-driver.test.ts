import { afterEach, describe, expect, it } from 'vitest';
import { SimulatorDriver } from './simulator-driver';

const drivers: SimulatorDriver[] = [];
afterEach(async () => {
  for (const d of drivers.splice(0)) await d.disconnect();
});

async function connected(): Promise<SimulatorDriver> {
  const driver = new SimulatorDriver('memory-user', { qrMs: 1, detectMs: 1, deliveredMs: 60_000, readMs: 60_000 });
  drivers.push(driver);
  await driver.connect();
  await new Promise<void>((resolve) => {
    driver.on('connection', (s) => {
      if (s.phoneNumber) resolve();
    });
  });
  return driver;
}

describe('the simulator keeps a bounded history per number', () => {
  it('keeps the most recent 1,000 sends and typing indicators, in order', async () => {
    const driver = await connected();
    for (let i = 0; i < 1_500; i++) {
      const to = `55219876${String(5001 + 2 * i).padStart(5, '0')}`;
      await driver.typing(to, true);
      await driver.send(to, { kind: 'text', text: `Oi ${i}` });
    }
    expect(driver.outbox).toHaveLength(1_000);
    expect(driver.typingLog).toHaveLength(1_000);
    expect(driver.outbox[0].message).toEqual({ kind: 'text', text: 'Oi 500' });
    expect(driver.outbox.at(-1)?.message).toEqual({ kind: 'text', text: 'Oi 1499' });
    expect(driver.typingLog.at(-1)?.to).toBe(driver.outbox.at(-1)?.to);
  });
});
