import { afterEach, describe, expect, it } from 'vitest';
import { SimulatorDriver } from './simulator-driver';

const drivers: SimulatorDriver[] = [];
afterEach(async () => {
  for (const d of drivers.splice(0)) await d.disconnect();
});

async function connected(id = 'memory-user'): Promise<SimulatorDriver> {
  const driver = new SimulatorDriver(id, { qrMs: 1, detectMs: 1, deliveredMs: 60_000, readMs: 60_000 });
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

describe('the simulator’s message ids', () => {
  it('never repeat across two numbers of one account, even in the same millisecond', async () => {
    const sales = await connected('number-sales');
    const support = await connected('number-support');
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) {
      ids.add(sales.injectInbound('5521977770001', 'oi').providerMessageId);
      ids.add(support.injectInbound('5521977770002', 'oi').providerMessageId);
      ids.add((await sales.send('5521977770003', { kind: 'text', text: 'oi' })).providerMessageId);
      ids.add((await support.send('5521977770003', { kind: 'text', text: 'oi' })).providerMessageId);
    }
    expect(ids.size).toBe(200);
  });
});
