import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaMsg } from '../../../contract/media';
import { uploadsMsg } from '../../../contract/uploads';
import { appPerFile } from '../../testing/app-per-file';
import { apiCall, createTestApp, newCustomerWithCalls } from '../../testing/test-app';
import { fileFromLink } from './link-file';

/** A file a customer links to becomes one of the account's files, fetched once under the outbound rules. */
const ctx = appPerFile(() => createTestApp({ WHATSAPP_DRIVER: 'simulator' }));

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(300_000), Buffer.from('\n%%EOF\n')]);
const EXE = Buffer.concat([Buffer.from('MZ'), randomBytes(4000)]);

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/docs/Cat%C3%A1logo%202026.pdf') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': PDF.length });
      return res.end(PDF);
    }
    if (req.url === '/named') {
      res.writeHead(200, { 'content-disposition': `attachment; filename*=UTF-8''Tabela%20de%20pre%C3%A7os.pdf` });
      return res.end(PDF);
    }
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/named' });
      return res.end();
    }
    if (req.url === '/setup.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(EXE);
    }
    if (req.url === '/endless') {
      // No length declared, and more than any kind's limit: the read stops at the limit.
      res.writeHead(200, { 'content-type': 'application/pdf' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      res.write(Buffer.from('%PDF-1.4\n'));
      let sent = 0;
      const more = () => {
        while (sent < 110) {
          sent++;
          if (!res.write(chunk)) return res.once('drain', more);
        }
        res.end();
      };
      return more();
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const deps = (allowPrivate: boolean) => ({
  db: ctx.app.deps.db,
  store: ctx.app.deps.media.store,
  outbound: { allowPrivate },
  quotaMb: 200,
});

describe('a file from a link', () => {
  it('is stored as the account’s file by its bytes, named as the link names it, and served to the account', async () => {
    const { user, cookie } = await newCustomerWithCalls(ctx);
    const file = await fileFromLink(deps(true), user.id, `${base}/docs/Cat%C3%A1logo%202026.pdf`);
    expect(file).toMatchObject({
      kind: 'document',
      mimeType: 'application/pdf',
      fileName: 'Catálogo 2026.pdf',
      size: PDF.length,
    });
    const served = await apiCall(ctx, 'GET', file.url, { cookie });
    expect(served.statusCode).toBe(200);
    expect(sha(served.rawPayload)).toBe(sha(PDF));
  });

  it('follows a checked redirect and takes the name from Content-Disposition', async () => {
    const { user } = await newCustomerWithCalls(ctx);
    const file = await fileFromLink(deps(true), user.id, `${base}/moved`);
    expect(file.fileName).toBe('Tabela de preços.pdf');
  });

  it('refuses a local address under the default rules; a failed fetch reads the same whatever the reason', async () => {
    const { user } = await newCustomerWithCalls(ctx);
    for (const link of [`${base}/named`, 'http://localhost/x.pdf', 'http://[::1]/x.pdf', 'http://2130706433/x.pdf']) {
      await expect(fileFromLink(deps(false), user.id, link)).rejects.toMatchObject({
        message: mediaMsg.fileUrlNotPublic,
      });
    }
    await expect(fileFromLink(deps(true), user.id, `${base}/missing.pdf`)).rejects.toMatchObject({
      message: mediaMsg.fileUnavailable,
    });
  });

  it('judges the bytes, not the name or the type the server declares, and stops an endless answer at the limit', async () => {
    const { user } = await newCustomerWithCalls(ctx);
    await expect(fileFromLink(deps(true), user.id, `${base}/setup.pdf`)).rejects.toMatchObject({ statusCode: 400 });
    await expect(fileFromLink(deps(true), user.id, `${base}/endless`)).rejects.toMatchObject({
      message: uploadsMsg.fileTooLarge,
    });
    const rows = await ctx.app.deps.db.execute(
      `select count(*)::int as n from media_uploads where user_id = '${user.id}'`,
    );
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
  });
});
