import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../testing/raw-http';
import { createTestApp, newCustomer, type TestContext } from '../testing/test-app';
import { lyingZipBomb, tinyXlsx } from '../testing/zip-bomb';

/** The probe's decompression bomb and the other uploads, over a real socket. */
let ctx: TestContext;
let base: string;
let bomb: Buffer;

beforeAll(async () => {
  ctx = await createTestApp();
  base = `http://127.0.0.1:${await listen(ctx)}`;
  bomb = await lyingZipBomb();
}, 60_000);
afterAll(() => ctx.close());

function upload(cookie: string, filename: string, data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), filename);
  return fetch(`${base}/api/contacts/import`, { method: 'POST', body: form, headers: { cookie, origin: base } });
}

describe('uploads', () => {
  it('refuses the lying zip bomb fast, with bounded memory, while the server keeps answering', async () => {
    const { cookie } = await newCustomer(ctx);
    expect(bomb.length).toBeGreaterThan(1_000_000);
    expect(bomb.length).toBeLessThan(2_000_000);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const healthTimes: number[] = [];
    let uploading = true;
    const health = (async () => {
      while (uploading) {
        const t = performance.now();
        const res = await fetch(`${base}/api/health`);
        expect(res.status).toBe(200);
        healthTimes.push(performance.now() - t);
      }
    })();

    const started = performance.now();
    const res = await upload(cookie, 'planilha.xlsx', bomb);
    const elapsed = performance.now() - started;
    uploading = false;
    await health;
    clearInterval(sampler);

    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/arquivo|planilha/i);
    expect(elapsed).toBeLessThan(1_000);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    expect(healthTimes.length).toBeGreaterThan(0);
    expect(Math.max(...healthTimes)).toBeLessThan(500);
  });

  it('still imports a real spreadsheet', async () => {
    const { cookie } = await newCustomer(ctx);
    const res = await upload(cookie, 'contatos.xlsx', tinyXlsx());
    expect(await res.json()).toMatchObject({ success: true, imported: 1 });
  });

  it('imports UTF-16 text without a byte-order mark, little- and big-endian', async () => {
    const csv = 'Nome;Telefone\r\nJosé Conceição;21998765432\r\nAna;(11) 91234-5678\r\n';
    const le = Buffer.from(csv, 'utf16le');
    const be = Buffer.from(le).swap16();
    for (const data of [le, be]) {
      const { cookie } = await newCustomer(ctx);
      const res = await upload(cookie, 'contatos.csv', data);
      expect(await res.json()).toMatchObject({ success: true, imported: 2 });
      const list = (await (await fetch(`${base}/api/contacts`, { headers: { cookie } })).json()) as Array<{
        name: string;
      }>;
      expect(list.map((c) => c.name).sort()).toEqual(['Ana', 'José Conceição']);
    }
  });

  it('still refuses binary that is not text', async () => {
    const { cookie } = await newCustomer(ctx);
    const res = await upload(
      cookie,
      'contatos.csv',
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0, 0, 9, 0, 0xff, 0]),
    );
    expect(res.status).toBe(400);
  });
});
