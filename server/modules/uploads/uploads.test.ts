import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES, uploadsMsg } from '../../../contract/uploads';
import { savedMessages } from '../../db/schema';
import { NOT_ACCEPTED } from '../../media/file-type';
import { appPerFile } from '../../testing/app-per-file';
import { newCustomer } from '../../testing/test-app';
import {
  detectImageType,
  fileDisposition,
  findUpload,
  loadUpload,
  saveUpload,
  storedFileName,
} from './uploads.service';

const ctx = appPerFile();

/** The first bytes of each accepted format, followed by filler. */
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(64, 1)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x40, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(64),
]);

/** A multipart body with one part, declaring whatever type the client claims. */
function multipartBody(filename: string, data: Buffer, opts: { field?: string; type?: string } = {}) {
  const boundary = '----disparo-upload-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${filename}"\r\nContent-Type: ${opts.type ?? 'application/octet-stream'}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function upload(
  cookie: string,
  filename: string,
  data: Buffer,
  opts: { field?: string; type?: string; query?: string } = {},
) {
  const body = multipartBody(filename, data, opts);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/uploads${opts.query ?? ''}`,
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
}

describe('POST /api/uploads', () => {
  it('stores a PNG, a JPEG and a WebP and answers where each is served', async () => {
    const { cookie } = await newCustomer(ctx);
    for (const [name, data, mimeType, fileName] of [
      ['foto.png', PNG, 'image/png', 'foto.png'],
      ['Promoção de Natal.jpeg', JPEG, 'image/jpeg', 'Promoção de Natal.jpg'],
      ['banner.webp', WEBP, 'image/webp', 'banner.webp'],
    ] as const) {
      const res = await upload(cookie, name, data);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        id: expect.any(String),
        url: `/api/uploads/${body.id}`,
        fileName,
        mimeType,
        size: data.length,
        kind: 'image',
      });
    }
  });

  it('decides the type by the bytes: a PNG named .exe is a PNG, a text file named .png is a text document', async () => {
    const { cookie } = await newCustomer(ctx);
    const png = await upload(cookie, 'C:\\fakepath\\virus.exe', PNG, { type: 'application/x-msdownload' });
    expect(png.statusCode, png.body).toBe(200);
    expect(png.json()).toMatchObject({ mimeType: 'image/png', fileName: 'virus.png' });

    // Any file is welcome, as what its bytes are: a text is a text document, named as one.
    const text = await upload(cookie, 'foto.png', Buffer.from('só um texto, não uma imagem'), { type: 'image/png' });
    expect(text.statusCode, text.body).toBe(200);
    expect(text.json()).toMatchObject({ kind: 'document', mimeType: 'text/plain', fileName: 'foto.txt' });
    // Where only an image will do (a campaign's picture), it is refused as before.
    const picture = await upload(cookie, 'foto.png', Buffer.from('só um texto, não uma imagem'), {
      query: '?kind=image',
    });
    expect(picture.statusCode).toBe(400);
    expect(picture.json()).toMatchObject({ code: 'VALIDATION', message: uploadsMsg.invalidType });

    for (const [name, data, type] of [
      [
        'foto.jpg',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'image/jpeg',
      ],
      ['foto.gif', Buffer.from('GIF89a\u0001\u0000\u0001\u0000'), 'image/gif'],
      ['foto.webp', Buffer.concat([Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVE'), Buffer.alloc(16)]), 'image/webp'],
    ] as const) {
      const res = await upload(cookie, name, data, { type });
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION', message: NOT_ACCEPTED });
    }
  });

  it('refuses an image over the limit with 413, and an empty or missing file with 400', async () => {
    const { cookie } = await newCustomer(ctx);
    const big = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES)]);
    const tooBig = await upload(cookie, 'grande.png', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', message: uploadsMsg.tooLarge });

    const atLimit = await upload(
      cookie,
      'limite.png',
      Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES - PNG.length)]),
    );
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    expect(atLimit.json().size).toBe(UPLOAD_MAX_BYTES);

    const empty = await upload(cookie, 'vazio.png', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(uploadsMsg.emptyFile);

    const wrongField = await upload(cookie, 'foto.png', PNG, { field: 'imagem' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toBe(uploadsMsg.noFile);

    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: { file: 'foto.png' },
      headers: { cookie },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(uploadsMsg.noFile);
  });

  it('is refused to visitors and demo accounts', async () => {
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/api/uploads', ...multipartBody('a.png', PNG) });
    expect(anonymous.statusCode).toBe(401);
    const demo = await newCustomer(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await upload(demo.cookie, 'a.png', PNG)).statusCode).toBe(403);
  });
});

describe('GET /api/uploads/:id', () => {
  it('serves the bytes to the owner with safe headers, and 404 to anyone else', async () => {
    const owner = await newCustomer(ctx);
    const other = await newCustomer(ctx);
    const { id, url } = (await upload(owner.cookie, 'Foto da loja; promoção.png', PNG)).json();

    const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie: owner.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private');
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="Foto da loja_ promocao.png"; filename*=UTF-8''Foto%20da%20loja%3B%20promo%C3%A7%C3%A3o.png`,
    );

    const stranger = await ctx.app.inject({ method: 'GET', url, headers: { cookie: other.cookie } });
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/api/uploads/00000000-0000-4000-8000-000000000000',
      headers: { cookie: owner.cookie },
    });
    expect(stranger.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(stranger.json()).toEqual(missing.json());
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);

    expect(await loadUpload(ctx.database.db, ctx.app.deps.media.store, other.user.id, id)).toBeNull();
    expect(await loadUpload(ctx.database.db, ctx.app.deps.media.store, owner.user.id, 'not-a-uuid')).toBeNull();
    const loaded = await loadUpload(ctx.database.db, ctx.app.deps.media.store, owner.user.id, id);
    expect(loaded?.mimeType).toBe('image/png');
    expect(loaded?.data.equals(PNG)).toBe(true);
  });
});

describe('upload helpers', () => {
  it('knows the three formats by their first bytes only', () => {
    expect(detectImageType(PNG)).toBe('image/png');
    expect(detectImageType(JPEG)).toBe('image/jpeg');
    expect(detectImageType(WEBP)).toBe('image/webp');
    expect(detectImageType(PNG.subarray(0, 4))).toBeNull();
    expect(detectImageType(Buffer.from('RIFF'))).toBeNull();
    expect(detectImageType(Buffer.alloc(0))).toBeNull();
  });

  it('keeps names without folders, controls or quotes, with the real extension', () => {
    expect(storedFileName('../../etc/passwd', 'image/png')).toBe('passwd.png');
    expect(storedFileName('a\u0000b"c<d>.jpeg', 'image/jpeg')).toBe('abcd.jpg');
    expect(storedFileName('', 'image/webp')).toBe('imagem.webp');
    expect(storedFileName(undefined, 'image/png')).toBe('imagem.png');
    expect(fileDisposition('Promoção.png')).toBe(
      `inline; filename="Promocao.png"; filename*=UTF-8''Promo%C3%A7%C3%A3o.png`,
    );
  });
});

describe('room for images per account', () => {
  const MB = 1024 * 1024;
  const png = (mb: number) => Buffer.concat([PNG, Buffer.alloc(Math.round(mb * MB) - PNG.length)]);

  it('prunes unused uploads older than a day when the room runs out, then refuses in Portuguese', async () => {
    const { user } = await newCustomer(ctx);
    const db = ctx.database.db;
    const save = (userId: string, fileName: string, mb: number) =>
      saveUpload(db, ctx.app.deps.media.store, userId, { fileName, data: png(mb) }, { quotaMb: 5 });
    const used = await save(user.id, 'usada.png', 3.5);
    const unused = await save(user.id, 'esquecida.png', 1);
    await db.insert(savedMessages).values({ userId: user.id, title: 'Com imagem', content: 'Oi', uploadId: used.id });

    // Full, and nothing is old enough to prune: refused, nothing removed.
    const refused = save(user.id, 'nova.png', 1);
    await expect(refused).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: uploadsMsg.quotaExceeded(5 * MB, 4.5 * MB),
    });
    expect(await findUpload(db, user.id, unused.id)).not.toBeNull();

    // A day later the forgotten image makes room; the one a saved message uses stays.
    await db.execute(sql`update media_uploads set created_at = now() - interval '2 days' where user_id = ${user.id}`);
    const fits = await save(user.id, 'nova.png', 1);
    expect(fits.size).toBe(MB);
    expect(await findUpload(db, user.id, unused.id)).toBeNull();
    expect(await findUpload(db, user.id, used.id)).not.toBeNull();

    // Another account's room is its own.
    const other = await newCustomer(ctx);
    expect((await save(other.user.id, 'b.png', 4)).size).toBe(4 * MB);
  });
});
