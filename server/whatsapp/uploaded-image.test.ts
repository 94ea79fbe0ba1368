import { describe, expect, it } from 'vitest';
import type { OutgoingMessage } from './driver';
import { type ImageLoader, withUploadedImage } from './uploaded-image';

/** An image named by upload id gets its bytes where it is sent, read for the sending account only. */
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const loads: Array<[string, string]> = [];
const load: ImageLoader = async (userId, id) => {
  loads.push([userId, id]);
  return userId === 'ana' && id === 'u1' ? { data: PNG, mimeType: 'image/png' } : null;
};

describe('withUploadedImage', () => {
  it("reads an upload's bytes for the sending account", async () => {
    const message: OutgoingMessage = { kind: 'image', image: { upload: 'u1' }, caption: 'Oferta' };
    expect(await withUploadedImage(message, 'ana', load)).toEqual({
      kind: 'image',
      image: { data: PNG, mimeType: 'image/png' },
      caption: 'Oferta',
    });
    expect(loads.at(-1)).toEqual(['ana', 'u1']);
  });

  it("sends the caption as text when the upload is gone or another account's", async () => {
    const message: OutgoingMessage = { kind: 'image', image: { upload: 'u1' }, caption: 'Oferta' };
    expect(await withUploadedImage(message, 'bia', load)).toEqual({ kind: 'text', text: 'Oferta' });
    expect(await withUploadedImage(message, 'ana', undefined)).toEqual({ kind: 'text', text: 'Oferta' });
  });

  it('leaves alone what names no upload, or already has its bytes', async () => {
    const before = loads.length;
    const link: OutgoingMessage = { kind: 'image', image: { url: 'https://example.com/a.png' }, caption: 'x' };
    const bytes: OutgoingMessage = { kind: 'image', image: { data: PNG, upload: 'u1' } };
    const text: OutgoingMessage = { kind: 'text', text: 'Oi' };
    for (const m of [link, bytes, text]) expect(await withUploadedImage(m, 'ana', load)).toBe(m);
    expect(loads).toHaveLength(before);
  });
});
