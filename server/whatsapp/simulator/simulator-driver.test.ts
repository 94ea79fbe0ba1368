import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatorOutboxResponse } from '../../../contract/whatsapp-connection';
import type { OutgoingMedia } from '../driver';
import { SimulatorDriver } from './simulator-driver';
import { SimulatorHooks } from './simulator-hooks';

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

describe('the simulator’s outbox of files, locations and contact cards', () => {
  it('reads a file’s stream to the end and keeps only its size and SHA-256, never its bytes', async () => {
    const driver = await connected('media-user');
    const chunks = [Buffer.alloc(64 * 1024, 7), Buffer.from('fim do arquivo')];
    const whole = Buffer.concat(chunks);
    let opened = 0;
    const media: OutgoingMedia = {
      kind: 'document',
      mimeType: 'application/pdf',
      fileName: 'Tabela.pdf',
      file: 'upload-1',
      size: whole.length,
      open: async () => {
        opened++;
        return (async function* () {
          yield* chunks;
        })();
      },
    };
    await driver.send('5521977770003', { kind: 'media', media, caption: 'Preços' });
    await driver.send('5521977770005', {
      kind: 'media',
      media: { kind: 'audio', mimeType: 'audio/ogg', fileName: 'voz.ogg', voice: true, open: media.open },
    });
    await driver.send('5521977770007', {
      kind: 'location',
      location: { latitude: -22.9, longitude: -43.2, name: 'Loja Centro' },
    });
    await driver.send('5521977770009', { kind: 'contact', contactCard: { name: 'Ana', phone: '5521988887777' } });
    await expect(
      driver.send('5521977770011', {
        kind: 'media',
        media: { kind: 'video', mimeType: 'video/mp4', fileName: 'v.mp4', url: 'https://example.com/v.mp4' },
      }),
    ).rejects.toMatchObject({ kind: 'permanent' });
    expect(opened).toBe(2);

    const sha256 = createHash('sha256').update(whole).digest('hex');
    const [doc] = driver.outbox;
    expect(doc.read).toEqual({ bytes: whole.length, sha256 });
    expect(doc.message.kind === 'media' && 'open' in doc.message.media).toBe(false);
    // No bytes anywhere in what the simulator keeps.
    expect(JSON.stringify(driver.outbox)).not.toContain('fim do arquivo');
    expect(JSON.stringify(driver.outbox).length).toBeLessThan(4_000);

    const hooks = new SimulatorHooks({
      directory: {} as never,
      local: () => driver,
      holderElsewhere: async () => null,
      command: async () => null,
    });
    const answer = await hooks.outboxOf('number-1');
    expect(simulatorOutboxResponse.parse({ messages: answer }).messages).toEqual(answer);
    expect(answer.map(({ at: _at, providerMessageId: _id, ...rest }) => rest)).toEqual([
      {
        to: '5521977770003',
        kind: 'media',
        mediaKind: 'document',
        fileName: 'Tabela.pdf',
        mimeType: 'application/pdf',
        voice: false,
        mediaBytes: whole.length,
        sha256,
        caption: 'Preços',
      },
      {
        to: '5521977770005',
        kind: 'media',
        mediaKind: 'audio',
        fileName: 'voz.ogg',
        mimeType: 'audio/ogg',
        voice: true,
        mediaBytes: whole.length,
        sha256,
      },
      { to: '5521977770007', kind: 'location', location: { latitude: -22.9, longitude: -43.2, name: 'Loja Centro' } },
      { to: '5521977770009', kind: 'contact', contactCard: { name: 'Ana', phone: '5521988887777' } },
    ]);
  });
});
