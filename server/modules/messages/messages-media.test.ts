import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupMsg } from '../../../contract/backup';
import { mediaMsg } from '../../../contract/media';
import { savedMessagesMsg } from '../../../contract/saved-messages';
import { appPerFile } from '../../testing/app-per-file';
import { type ApiMethod, apiCall, newCustomer } from '../../testing/test-app';
import { fileFromLink } from '../uploads';

/** A saved message's file of any kind (`mediaUrl`): kept as one of the account's files, freed when no longer sent. */
const ctx = appPerFile();

const account = () => newCustomer(ctx);
const call = (cookie: string, method: ApiMethod, url: string, payload?: unknown) =>
  apiCall(ctx, method, url, { payload, cookie });

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(20_000), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(32, 3)]);

interface Uploaded {
  id: string;
  url: string;
  fileName: string;
  size: number;
  mimeType: string;
}

async function upload(cookie: string, name: string, data: Buffer): Promise<Uploaded> {
  const res = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name, data } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const base = { title: 'Tabela de preços', content: 'Segue a tabela de preços.' };

async function save(cookie: string, payload: object, id?: string) {
  const res = await call(cookie, id ? 'PUT' : 'POST', id ? `/api/messages/${id}` : '/api/messages', {
    ...base,
    ...payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().savedMessage;
}

const served = async (cookie: string, file: Uploaded) => (await call(cookie, 'GET', file.url)).statusCode;

let server: Server;
let origin = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/catalogo.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': PDF.length });
      return res.end(PDF);
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('a saved message’s file (mediaUrl)', () => {
  it('keeps a PDF upload, answers what it is, and reads back the same', async () => {
    const { cookie } = await account();
    const pdf = await upload(cookie, 'tabela.pdf', PDF);
    const saved = await save(cookie, { mediaUrl: `upload:${pdf.id}` });
    const media = { kind: 'document', fileName: 'tabela.pdf', mimeType: 'application/pdf', size: PDF.length };
    expect(saved).toMatchObject({
      mediaUrl: `upload:${pdf.id}`,
      media,
      // The spec's image fields keep their meaning: no image.
      hasImage: false,
      imageUrl: '',
      imageFile: '',
      uploadId: null,
    });
    expect((await call(cookie, 'GET', `/api/messages/${saved.id}`)).json()).toMatchObject({
      mediaUrl: `upload:${pdf.id}`,
      media,
    });
    const list = (await call(cookie, 'GET', '/api/messages')).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ mediaUrl: `upload:${pdf.id}`, media });

    // Its /api/uploads address names the same file.
    const byUrl = await save(cookie, { mediaUrl: pdf.url });
    expect(byUrl.mediaUrl).toBe(`upload:${pdf.id}`);
  });

  it('answers mediaUrl null and media null for a message without a file', async () => {
    const { cookie } = await account();
    const saved = await save(cookie, {});
    expect(saved).toMatchObject({ mediaUrl: null, media: null });
  });

  it('frees the old file when another replaces it or the file is removed, and keeps it for a client that does not send mediaUrl', async () => {
    const { cookie } = await account();
    const first = await upload(cookie, 'primeiro.pdf', PDF);
    const second = await upload(cookie, 'segundo.pdf', PDF);
    const saved = await save(cookie, { mediaUrl: `upload:${first.id}` });

    // A client written from the spec sends no mediaUrl: the file stays.
    const specEdit = await save(cookie, { title: 'Editada' }, saved.id);
    expect(specEdit).toMatchObject({ title: 'Editada', mediaUrl: `upload:${first.id}` });
    expect(await served(cookie, first)).toBe(200);

    const replaced = await save(cookie, { mediaUrl: `upload:${second.id}` }, saved.id);
    expect(replaced).toMatchObject({ mediaUrl: `upload:${second.id}`, media: { fileName: 'segundo.pdf' } });
    expect(await served(cookie, first)).toBe(404);
    expect(await served(cookie, second)).toBe(200);

    const removed = await save(cookie, { mediaUrl: null }, saved.id);
    expect(removed).toMatchObject({ mediaUrl: null, media: null });
    expect(await served(cookie, second)).toBe(404);
  });

  it('keeps a replaced file that another saved message still sends', async () => {
    const { cookie } = await account();
    const shared = await upload(cookie, 'comum.pdf', PDF);
    const other = await upload(cookie, 'outro.pdf', PDF);
    const a = await save(cookie, { title: 'A', mediaUrl: `upload:${shared.id}` });
    await save(cookie, { title: 'B', mediaUrl: `upload:${shared.id}` });
    await save(cookie, { title: 'A', mediaUrl: `upload:${other.id}` }, a.id);
    expect(await served(cookie, shared)).toBe(200);
  });

  it('lets an image given the spec’s way replace the file (and frees it), but not both in one request', async () => {
    const { cookie } = await account();
    const pdf = await upload(cookie, 'tabela.pdf', PDF);
    const image = await upload(cookie, 'foto.png', PNG);
    const saved = await save(cookie, { mediaUrl: `upload:${pdf.id}` });

    const both = await call(cookie, 'PUT', `/api/messages/${saved.id}`, {
      ...base,
      hasImage: true,
      uploadId: image.id,
      mediaUrl: `upload:${pdf.id}`,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ message: savedMessagesMsg.imageOrMedia });

    const withImage = await save(cookie, { hasImage: true, uploadId: image.id }, saved.id);
    expect(withImage).toMatchObject({ hasImage: true, uploadId: image.id, mediaUrl: null, media: null });
    expect(await served(cookie, pdf)).toBe(404);
    expect(await served(cookie, image)).toBe(200);
  });

  it('refuses another account’s file exactly as a missing one, and malformed references', async () => {
    const a = await account();
    const b = await account();
    const theirs = await upload(b.cookie, 'deles.pdf', PDF);
    const refused = async (mediaUrl: string, message: string) => {
      const res = await call(a.cookie, 'POST', '/api/messages', { ...base, mediaUrl });
      expect(res.statusCode, mediaUrl).toBe(400);
      expect(res.json(), mediaUrl).toMatchObject({ code: 'VALIDATION', message, fieldErrors: { mediaUrl: message } });
    };
    for (const ref of [
      `upload:${theirs.id}`,
      theirs.url,
      'upload:00000000-0000-4000-8000-000000000000',
      'upload:nao-e-um-id',
      'upload:',
    ])
      await refused(ref, savedMessagesMsg.fileNotFound);
    for (const ref of ['javascript:alert(1)', 'ftp://exemplo.com/a.pdf', 'http://exemplo.com/tabela.pdf', 'tabela.pdf'])
      await refused(ref, savedMessagesMsg.mediaUrlInvalid);
    await refused('https://127.0.0.1/tabela.pdf', mediaMsg.fileUrlNotPublic);
    await refused('https://10.0.0.1/foto.png', mediaMsg.imageUrlNotPublic);
    expect((await call(a.cookie, 'GET', '/api/messages')).json()).toEqual([]);
    // Their file is still theirs.
    expect(await served(b.cookie, theirs)).toBe(200);
  });

  it('fetches a link to a file that is not an image once into the account’s files; keeps an image link as a link', async () => {
    const { cookie, user } = await account();
    const fromLink = vi
      .spyOn(ctx.app.deps.media, 'fromLink')
      .mockImplementation((userId) =>
        fileFromLink(
          { db: ctx.app.deps.db, store: ctx.app.deps.media.store, outbound: { allowPrivate: true }, quotaMb: 200 },
          userId,
          `${origin}/catalogo.pdf`,
        ),
      );
    try {
      const saved = await save(cookie, { mediaUrl: 'https://loja.example.com/catalogo.pdf' });
      expect(fromLink).toHaveBeenCalledTimes(1);
      expect(fromLink).toHaveBeenCalledWith(user.id, 'https://loja.example.com/catalogo.pdf');
      expect(saved.mediaUrl).toMatch(/^upload:[0-9a-f-]{36}$/);
      expect(saved.media).toMatchObject({ kind: 'document', mimeType: 'application/pdf', size: PDF.length });
      const id = saved.mediaUrl.slice('upload:'.length);
      const bytes = await call(cookie, 'GET', `/api/uploads/${id}`);
      expect(bytes.statusCode).toBe(200);
      expect(Buffer.compare(bytes.rawPayload, PDF)).toBe(0);

      // Reading it and editing it without a new file fetch nothing again.
      await call(cookie, 'GET', `/api/messages/${saved.id}`);
      await call(cookie, 'GET', '/api/messages');
      await save(cookie, { title: 'Outro título' }, saved.id);
      expect(fromLink).toHaveBeenCalledTimes(1);

      const image = await save(cookie, { mediaUrl: 'https://cdn.example.com/oferta.jpg' });
      expect(image).toMatchObject({ mediaUrl: 'https://cdn.example.com/oferta.jpg', media: null });
      expect(fromLink).toHaveBeenCalledTimes(1);
    } finally {
      fromLink.mockRestore();
    }
  });

  it('frees the file when the message is deleted', async () => {
    const { cookie } = await account();
    const pdf = await upload(cookie, 'tabela.pdf', PDF);
    const saved = await save(cookie, { mediaUrl: `upload:${pdf.id}` });
    expect((await call(cookie, 'DELETE', `/api/messages/${saved.id}`)).statusCode).toBe(200);
    expect(await served(cookie, pdf)).toBe(404);
  });

  it('keeps each account to its own messages and files', async () => {
    const a = await account();
    const b = await account();
    const pdf = await upload(a.cookie, 'tabela.pdf', PDF);
    const saved = await save(a.cookie, { mediaUrl: `upload:${pdf.id}` });
    expect((await call(b.cookie, 'GET', '/api/messages')).json()).toEqual([]);
    expect((await call(b.cookie, 'GET', `/api/messages/${saved.id}`)).statusCode).toBe(404);
    const put = await call(b.cookie, 'PUT', `/api/messages/${saved.id}`, { ...base, mediaUrl: null });
    expect(put.statusCode).toBe(404);
    expect((await call(b.cookie, 'DELETE', `/api/messages/${saved.id}`)).statusCode).toBe(404);
    expect(await served(a.cookie, pdf)).toBe(200);
    expect((await call(a.cookie, 'GET', `/api/messages/${saved.id}`)).json()).toMatchObject({
      mediaUrl: `upload:${pdf.id}`,
      media: { fileName: 'tabela.pdf' },
    });
  });

  it('goes with the message into a campaign made from it', async () => {
    const { cookie } = await account();
    const pdf = await upload(cookie, 'tabela.pdf', PDF);
    const saved = await save(cookie, { mediaUrl: `upload:${pdf.id}` });
    const res = await call(cookie, 'POST', '/api/campaigns', {
      name: 'Tabela para todos',
      targetType: 'all',
      savedMessageId: saved.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: base.content,
      mediaUrl: `upload:${pdf.id}`,
      media: { kind: 'document', fileName: 'tabela.pdf' },
    });
  });

  it('goes into a backup with its mediaUrl and file: restored where it was made, copied into another account, reported when the file is missing', async () => {
    const a = await account();
    const pdf = await upload(a.cookie, 'tabela.pdf', PDF);
    await save(a.cookie, { title: 'Com PDF', mediaUrl: `upload:${pdf.id}` });
    await save(a.cookie, { title: 'Com link', mediaUrl: 'https://cdn.example.com/oferta.jpg' });
    const exported = await call(a.cookie, 'GET', '/api/backup');
    expect(exported.statusCode).toBe(200);
    const file = JSON.parse(exported.body);
    expect(file.savedMessages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ title: 'Com PDF', mediaUrl: `upload:${pdf.id}` }),
        expect.objectContaining({ title: 'Com link', mediaUrl: 'https://cdn.example.com/oferta.jpg' }),
      ]),
    );
    // The PDF, kept in the media store, travels in the file.
    expect(file.files).toMatchObject({ included: true, count: 1, notIncluded: 0 });

    const restore = (cookie: string, data: object) =>
      apiCall(ctx, 'POST', '/api/backup/restore', {
        cookie,
        file: { name: 'backup.json', data: Buffer.from(JSON.stringify(data)) },
      });

    // Where it was made, after the messages were deleted (the PDF kept by another message).
    const keeper = await save(a.cookie, { title: 'Fica', content: 'Outra', mediaUrl: `upload:${pdf.id}` });
    for (const m of (await call(a.cookie, 'GET', '/api/messages')).json())
      if (m.id !== keeper.id) await call(a.cookie, 'DELETE', `/api/messages/${m.id}`);
    const back = await restore(a.cookie, file);
    expect(back.statusCode, back.body).toBe(200);
    const mine = (await call(a.cookie, 'GET', '/api/messages')).json();
    expect(mine.find((m: { title: string }) => m.title === 'Com PDF')).toMatchObject({
      mediaUrl: `upload:${pdf.id}`,
      media: { fileName: 'tabela.pdf' },
    });
    expect(mine.find((m: { title: string }) => m.title === 'Com link')).toMatchObject({
      mediaUrl: 'https://cdn.example.com/oferta.jpg',
    });

    // Into another account: the message comes back with its own copy of the file.
    const b = await account();
    const elsewhere = await restore(b.cookie, file);
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect(elsewhere.json().warnings).toEqual([]);
    const theirs = (await call(b.cookie, 'GET', '/api/messages')).json();
    const copy = theirs.find((m: { title: string }) => m.title === 'Com PDF');
    expect(copy).toMatchObject({ media: { fileName: 'tabela.pdf' } });
    expect(copy.mediaUrl).toMatch(/^upload:[0-9a-f-]{36}$/);
    expect(copy.mediaUrl).not.toBe(`upload:${pdf.id}`);
    const bytes = await call(b.cookie, 'GET', `/api/uploads/${copy.mediaUrl.slice('upload:'.length)}`);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.rawPayload.equals(PDF)).toBe(true);

    // A file without the files: the message comes back without its file, and the restore says why.
    const c = await account();
    const stripped = await restore(c.cookie, { ...file, media: [] });
    expect(stripped.statusCode, stripped.body).toBe(200);
    expect(stripped.json().warnings).toContain(backupMsg.messageFileNotRestored('Com PDF'));
    const third = (await call(c.cookie, 'GET', '/api/messages')).json();
    expect(third.find((m: { title: string }) => m.title === 'Com PDF')).toMatchObject({ mediaUrl: null, media: null });
    expect(theirs.find((m: { title: string }) => m.title === 'Com link')).toMatchObject({
      mediaUrl: 'https://cdn.example.com/oferta.jpg',
    });
  });
});
