import { describe, expect, it } from 'vitest';
import { type SavedMessage, savedMessagesMsg } from '#contract/saved-messages';
import {
  bodyFromValues,
  type ComposeMessageValues,
  composeMessageForm,
  emptyComposeValues,
  valuesFromMessage,
} from './compose-form';

const valid: ComposeMessageValues = { ...emptyComposeValues, title: 'Promoção', content: 'Olá!' };

function errorsOf(values: ComposeMessageValues): Record<string, string> {
  const result = composeMessageForm.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('compose message form', () => {
  it('answers the §5 messages', () => {
    expect(errorsOf({ ...emptyComposeValues })).toEqual({
      title: savedMessagesMsg.titleRequired,
      content: savedMessagesMsg.contentRequired,
    });
    expect(errorsOf({ ...valid, title: '   ', content: ' \n ' })).toEqual({
      title: savedMessagesMsg.titleRequired,
      content: savedMessagesMsg.contentRequired,
    });
    expect(errorsOf({ ...valid, type: '' as 'contacts' })).toEqual({ type: savedMessagesMsg.typeRequired });
    expect(errorsOf(valid)).toEqual({});
  });

  it('asks for the image of an attached image', () => {
    const withImage = { ...valid, hasImage: true };
    expect(errorsOf({ ...withImage, imageSource: 'url' })).toEqual({ imageUrl: savedMessagesMsg.imageUrlRequired });
    expect(errorsOf({ ...withImage, imageUrl: 'javascript:alert(1)' })).toEqual({
      imageUrl: savedMessagesMsg.imageUrlInvalid,
    });
    expect(errorsOf({ ...withImage, imageSource: 'upload' })).toEqual({
      uploadId: savedMessagesMsg.imageUploadRequired,
    });
    expect(errorsOf({ ...withImage, imageUrl: 'https://exemplo.com.br/a.png' })).toEqual({});
  });

  it('sends the spec payload with contentType from the HTML switch and only the chosen image', () => {
    const base = composeMessageForm.parse({
      ...valid,
      title: '  Promoção ',
      hasImage: true,
      imageUrl: 'https://exemplo.com.br/a.png',
      uploadId: 'u1',
      imageFile: 'foto.png',
      htmlMode: true,
      content: '<b>Olá</b>',
    });
    expect(bodyFromValues(base)).toEqual({
      title: 'Promoção',
      type: 'contacts',
      enableMessage: true,
      hasImage: true,
      imageUrl: 'https://exemplo.com.br/a.png',
      imageFile: '',
      content: '<b>Olá</b>',
      contentType: 'html',
      uploadId: null,
    });
    expect(bodyFromValues({ ...base, imageSource: 'upload' })).toMatchObject({
      imageUrl: '',
      imageFile: 'foto.png',
      uploadId: 'u1',
    });
    expect(bodyFromValues({ ...base, hasImage: false, htmlMode: false })).toMatchObject({
      hasImage: false,
      imageUrl: '',
      imageFile: '',
      uploadId: null,
      contentType: 'text',
    });
  });

  it('fills the form from a saved message to edit it', () => {
    const saved: SavedMessage = {
      id: 'm1',
      title: 'Oferta',
      type: 'groups',
      enableMessage: false,
      hasImage: true,
      imageUrl: '',
      imageFile: 'oferta.png',
      uploadId: 'u1',
      uploadUrl: '/api/uploads/u1',
      content: '<b>Oi</b>',
      contentType: 'html',
      preview: '*Oi*',
      createdAt: '2026-11-22T14:05:00.000Z',
      updatedAt: '2026-11-22T14:05:00.000Z',
    };
    expect(valuesFromMessage(saved)).toEqual({
      title: 'Oferta',
      type: 'groups',
      enableMessage: false,
      hasImage: true,
      imageSource: 'upload',
      imageUrl: '',
      uploadId: 'u1',
      uploadUrl: '/api/uploads/u1',
      imageFile: 'oferta.png',
      content: '<b>Oi</b>',
      htmlMode: true,
      mediaUrl: '',
      media: null,
      hadMedia: false,
    });
    expect(valuesFromMessage(null)).toBe(emptyComposeValues);
    const withPdf = {
      ...saved,
      hasImage: false,
      uploadId: null,
      uploadUrl: null,
      imageFile: '',
      mediaUrl: 'upload:f1',
      media: { kind: 'document' as const, mimeType: 'application/pdf', fileName: 'tabela.pdf', size: 1200 },
    };
    expect(valuesFromMessage(withPdf)).toMatchObject({
      hasImage: false,
      mediaUrl: 'upload:f1',
      media: withPdf.media,
      hadMedia: true,
    });
  });

  it('sends a file of any kind as mediaUrl, null when removed or when an image is attached instead', () => {
    const parsed = (v: typeof emptyComposeValues) => composeMessageForm.parse(v);
    const base = { ...emptyComposeValues, title: 'Tabela', content: 'Segue a tabela' };
    const pdf = { ...base, mediaUrl: 'upload:f1', media: { kind: 'document' as const, fileName: 'tabela.pdf' } };
    expect(bodyFromValues(parsed(pdf))).toMatchObject({ hasImage: false, mediaUrl: 'upload:f1', uploadId: null });
    // Removed from a message that had it: null; a message that never had one sends no mediaUrl at all.
    expect(bodyFromValues(parsed({ ...pdf, mediaUrl: '', media: null, hadMedia: true }))).toMatchObject({
      mediaUrl: null,
    });
    expect('mediaUrl' in bodyFromValues(parsed({ ...pdf, mediaUrl: '', media: null }))).toBe(false);
    const image = { ...pdf, hasImage: true, imageUrl: 'https://exemplo.com.br/a.png', hadMedia: true };
    expect(bodyFromValues(parsed(image))).toMatchObject({ hasImage: true, mediaUrl: null });
  });
});
