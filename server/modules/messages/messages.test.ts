import { describe, expect, it } from 'vitest';
import { SAVED_MESSAGE_TEXT_MAX, savedMessagesMsg } from '../../../contract/saved-messages';
import { appPerFile } from '../../testing/app-per-file';
import { type ApiMethod, apiCall, newCustomer } from '../../testing/test-app';
import { savedMessageAsContent } from './messages.service';

const ctx = appPerFile();

const account = () => newCustomer(ctx);
const call = (cookie: string, method: ApiMethod, url: string, payload?: unknown) =>
  apiCall(ctx, method, url, { payload, cookie });

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(32, 3)]);

async function uploadImage(cookie: string, name = 'oferta.png'): Promise<{ id: string; fileName: string }> {
  const res = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name, data: PNG } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Exactly the payload SPEC §7 lists for POST /api/messages. */
const specPayload = {
  title: 'Promoção de Natal',
  type: 'contacts',
  enableMessage: true,
  hasImage: false,
  imageUrl: '',
  imageFile: null,
  content: 'Olá! Aproveite 20% de desconto.',
  contentType: 'text',
};

describe('POST /api/messages', () => {
  it('accepts the spec payload and answers the saved message', async () => {
    const { cookie } = await account();
    const res = await call(cookie, 'POST', '/api/messages', specPayload);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: savedMessagesMsg.saved,
      savedMessage: {
        id: expect.any(String),
        title: 'Promoção de Natal',
        type: 'contacts',
        enableMessage: true,
        hasImage: false,
        imageUrl: '',
        imageFile: '',
        uploadId: null,
        content: 'Olá! Aproveite 20% de desconto.',
        contentType: 'text',
        preview: 'Olá! Aproveite 20% de desconto.',
      },
    });
  });

  it('fills the spec defaults: contacts, enabled, no image, text', async () => {
    const { cookie } = await account();
    const res = await call(cookie, 'POST', '/api/messages', { title: 'Só o básico', content: 'Oi' });
    expect(res.json().savedMessage).toMatchObject({
      type: 'contacts',
      enableMessage: true,
      hasImage: false,
      contentType: 'text',
    });
  });

  it('takes imageFile in every shape a client may send it', async () => {
    const { cookie } = await account();
    const shapes: Array<[unknown, string]> = [
      ['foto.png', 'foto.png'],
      ['C:\\fakepath\\foto loja.jpg', 'foto loja.jpg'],
      [null, ''],
      ['', ''],
      [{}, ''],
      [{ name: 'banner.webp' }, 'banner.webp'],
      [undefined, ''],
    ];
    for (const [imageFile, stored] of shapes) {
      const res = await call(cookie, 'POST', '/api/messages', {
        ...specPayload,
        type: 'groups',
        hasImage: true,
        imageUrl: null,
        imageFile,
      });
      expect(res.statusCode, `${JSON.stringify(imageFile)} ${res.body}`).toBe(200);
      expect(res.json().savedMessage).toMatchObject({
        type: 'groups',
        hasImage: true,
        imageFile: stored,
        imageUrl: '',
      });
    }
  });

  it('answers the §5 validation messages', async () => {
    const { cookie } = await account();
    const refused = async (payload: object, field: string, message: string) => {
      const res = await call(cookie, 'POST', '/api/messages', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION', message });
      expect(res.json().fieldErrors?.[field]).toBe(message);
    };
    await refused({ ...specPayload, title: '   ' }, 'title', savedMessagesMsg.titleRequired);
    await refused({ ...specPayload, title: undefined }, 'title', savedMessagesMsg.titleRequired);
    await refused({ ...specPayload, title: null }, 'title', savedMessagesMsg.titleRequired);
    await refused({ ...specPayload, type: 'todos' }, 'type', savedMessagesMsg.typeRequired);
    await refused({ ...specPayload, type: null }, 'type', savedMessagesMsg.typeRequired);
    await refused({ ...specPayload, content: '' }, 'content', savedMessagesMsg.contentRequired);
    await refused({ ...specPayload, content: undefined }, 'content', savedMessagesMsg.contentRequired);
    await refused({ ...specPayload, contentType: 'markdown' }, 'contentType', savedMessagesMsg.contentTypeInvalid);
    await refused(
      { ...specPayload, content: 'a'.repeat(SAVED_MESSAGE_TEXT_MAX + 1) },
      'content',
      savedMessagesMsg.contentTooLong,
    );
    // HTML with nothing left once sanitised is no content.
    await refused(
      { ...specPayload, contentType: 'html', content: '<script>alert(1)</script><b> </b>' },
      'content',
      savedMessagesMsg.contentRequired,
    );
    await refused(
      { ...specPayload, hasImage: true, imageUrl: 'javascript:alert(1)' },
      'imageUrl',
      savedMessagesMsg.imageUrlInvalid,
    );
  });

  it('sanitises HTML before storing it: scripts and handlers are gone, <b> stays', async () => {
    const { cookie } = await account();
    const res = await call(cookie, 'POST', '/api/messages', {
      ...specPayload,
      contentType: 'html',
      content:
        '<b onclick="roubar()">Oferta</b><script>alert(1)</script><img src=x onerror="alert(1)"> <i style="x">hoje</i><br><a href="javascript:alert(1)">aqui</a>',
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().savedMessage;
    expect(saved.content).toBe('<b>Oferta</b> <i>hoje</i><br />aqui');
    expect(saved.content).not.toMatch(/script|onerror|onclick|javascript|style|<img/i);
    expect(saved.preview).toBe('*Oferta* _hoje_\naqui');
    const stored = await call(cookie, 'GET', `/api/messages/${saved.id}`);
    expect(stored.json().content).toBe(saved.content);
  });

  it('keeps an upload of the same account and refuses another account’s', async () => {
    const a = await account();
    const b = await account();
    const mine = await uploadImage(a.cookie, 'oferta.png');
    const theirs = await uploadImage(b.cookie);

    const res = await call(a.cookie, 'POST', '/api/messages', {
      ...specPayload,
      hasImage: true,
      imageFile: 'outro-nome.png',
      uploadId: mine.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().savedMessage).toMatchObject({
      hasImage: true,
      uploadId: mine.id,
      uploadUrl: `/api/uploads/${mine.id}`,
      imageFile: 'oferta.png',
    });

    for (const uploadId of [theirs.id, '00000000-0000-4000-8000-000000000000', 'nao-e-um-id']) {
      const refused = await call(a.cookie, 'POST', '/api/messages', { ...specPayload, hasImage: true, uploadId });
      expect(refused.statusCode, uploadId).toBe(400);
      expect(refused.json().message).toBe(savedMessagesMsg.uploadNotFound);
    }
  });

  it('drops the image fields of a message without image', async () => {
    const { cookie } = await account();
    const image = await uploadImage(cookie);
    const res = await call(cookie, 'POST', '/api/messages', {
      ...specPayload,
      hasImage: false,
      imageUrl: 'https://exemplo.com.br/a.png',
      imageFile: 'a.png',
      uploadId: image.id,
    });
    expect(res.json().savedMessage).toMatchObject({ hasImage: false, imageUrl: '', imageFile: '', uploadId: null });
  });

  it('is read-only for demo accounts', async () => {
    const demo = await newCustomer(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await call(demo.cookie, 'POST', '/api/messages', specPayload)).statusCode).toBe(403);
    expect((await call(demo.cookie, 'GET', '/api/messages')).statusCode).toBe(200);
  });
});

describe('saved messages list, edit and delete', () => {
  it('lists newest first, reads, replaces and deletes', async () => {
    const { cookie } = await account();
    const first = (await call(cookie, 'POST', '/api/messages', { ...specPayload, title: 'Primeira' })).json()
      .savedMessage;
    const second = (await call(cookie, 'POST', '/api/messages', { ...specPayload, title: 'Segunda' })).json()
      .savedMessage;
    const list = (await call(cookie, 'GET', '/api/messages')).json();
    expect(list.map((m: { title: string }) => m.title)).toEqual(['Segunda', 'Primeira']);

    const got = await call(cookie, 'GET', `/api/messages/${first.id}`);
    expect(got.json()).toMatchObject({ id: first.id, title: 'Primeira' });

    const put = await call(cookie, 'PUT', `/api/messages/${first.id}`, {
      ...specPayload,
      title: 'Primeira editada',
      type: 'groups',
      enableMessage: false,
      hasImage: true,
      imageUrl: 'https://exemplo.com.br/oferta.jpg',
      contentType: 'html',
      content: '<p>Olá <b>grupo</b></p><ul><li>item</li></ul>',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      success: true,
      message: savedMessagesMsg.saved,
      savedMessage: {
        id: first.id,
        title: 'Primeira editada',
        type: 'groups',
        enableMessage: false,
        imageUrl: 'https://exemplo.com.br/oferta.jpg',
        preview: 'Olá *grupo*\n\n• item',
      },
    });
    expect(put.json().savedMessage.createdAt).toBe(first.createdAt);

    const del = await call(cookie, 'DELETE', `/api/messages/${second.id}`);
    expect(del.json()).toEqual({ success: true, message: savedMessagesMsg.deleted });
    expect((await call(cookie, 'DELETE', `/api/messages/${second.id}`)).statusCode).toBe(404);
    expect((await call(cookie, 'GET', `/api/messages/${second.id}`)).statusCode).toBe(404);
    expect((await call(cookie, 'GET', '/api/messages')).json()).toHaveLength(1);
  });

  it('keeps each account to its own messages', async () => {
    const a = await account();
    const b = await account();
    const id = (await call(a.cookie, 'POST', '/api/messages', specPayload)).json().savedMessage.id;
    const notFound = { success: false, code: 'NOT_FOUND', message: savedMessagesMsg.notFound };
    expect((await call(b.cookie, 'GET', `/api/messages/${id}`)).json()).toEqual(notFound);
    expect((await call(b.cookie, 'PUT', `/api/messages/${id}`, specPayload)).json()).toEqual(notFound);
    expect((await call(b.cookie, 'DELETE', `/api/messages/${id}`)).json()).toEqual(notFound);
    expect((await call(b.cookie, 'GET', '/api/messages')).json()).toEqual([]);
    const still = await call(a.cookie, 'GET', `/api/messages/${id}`);
    expect(still.json()).toMatchObject({ id, title: specPayload.title, content: specPayload.content });
    expect((await call(b.cookie, 'GET', '/api/messages/nao-e-um-id')).statusCode).toBe(400);
  });
});

describe('savedMessageAsContent', () => {
  it('gives a campaign the WhatsApp text and the image of the account’s own message', async () => {
    const { user, cookie } = await account();
    const other = await account();
    const db = ctx.database.db;
    const image = await uploadImage(cookie);

    const html = (
      await call(cookie, 'POST', '/api/messages', {
        ...specPayload,
        contentType: 'html',
        content: '<b>Oi</b> {{nome}}<br>até logo',
        hasImage: true,
        uploadId: image.id,
      })
    ).json().savedMessage;
    expect(await savedMessageAsContent(db, user.id, html.id)).toEqual({
      message: '*Oi* {{nome}}\naté logo',
      imageUrl: `upload:${image.id}`,
      mediaUrl: null,
    });

    const linked = (
      await call(cookie, 'POST', '/api/messages', {
        ...specPayload,
        hasImage: true,
        imageUrl: 'https://exemplo.com.br/a.png',
      })
    ).json().savedMessage;
    expect(await savedMessageAsContent(db, user.id, linked.id)).toEqual({
      message: specPayload.content,
      imageUrl: 'https://exemplo.com.br/a.png',
      mediaUrl: null,
    });

    // Only a file name (what a client that does not upload keeps): nothing to send as image.
    const nameOnly = (
      await call(cookie, 'POST', '/api/messages', { ...specPayload, hasImage: true, imageFile: 'foto.png' })
    ).json().savedMessage;
    expect((await savedMessageAsContent(db, user.id, nameOnly.id))?.imageUrl).toBeNull();

    expect(await savedMessageAsContent(db, other.user.id, html.id)).toBeNull();
    expect(await savedMessageAsContent(db, user.id, 'nao-e-um-id')).toBeNull();
  });
});
