import { describe, expect, it } from 'vitest';
import { buildMessage, type CampaignContent } from './content';

/** A campaign's uploaded image is read where the message is built, unless the driver reads it by id. */
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const campaign: CampaignContent = {
  campaignId: 'c1',
  message: 'Oi {{nome}}',
  imageUrl: 'upload:u1',
  templateName: null,
  templateLanguage: null,
  templateVariables: [],
};
const ana = { recipient: '5521998765431', kind: 'contact' as const, name: 'Ana', email: null };

describe('buildMessage with an uploaded image', () => {
  it('reads the bytes for a driver of this process', async () => {
    let reads = 0;
    const message = await buildMessage(campaign, ana, {
      userId: 'acc',
      cloud: false,
      loadImage: async () => {
        reads++;
        return { data: PNG, mimeType: 'image/png' };
      },
    });
    expect(message).toEqual({ kind: 'image', image: { data: PNG, mimeType: 'image/png' }, caption: 'Oi Ana' });
    expect(reads).toBe(1);
  });

  it('names it by id for a number held by another process, without reading it', async () => {
    let reads = 0;
    const message = await buildMessage(campaign, ana, {
      userId: 'acc',
      cloud: false,
      byReference: true,
      loadImage: async () => {
        reads++;
        return { data: PNG, mimeType: 'image/png' };
      },
    });
    expect(message).toEqual({ kind: 'image', image: { upload: 'u1' }, caption: 'Oi Ana' });
    expect(reads).toBe(0);
  });
});

describe('buildMessage with one of the account’s files (mediaUrl)', () => {
  const withFile = (kind: 'document' | 'audio'): CampaignContent => ({
    ...campaign,
    imageUrl: null,
    mediaUrl: 'upload:f1',
    mediaFile: {
      id: 'f1',
      kind,
      mimeType: kind === 'audio' ? 'audio/ogg' : 'application/pdf',
      fileName: kind === 'audio' ? 'voz.ogg' : 'catalogo.pdf',
      voice: kind === 'audio',
      durationSeconds: kind === 'audio' ? 7 : null,
    },
  });

  it('names a document by id with the text as caption for another process; opens it here otherwise', async () => {
    const byId = await buildMessage(withFile('document'), ana, { userId: 'acc', cloud: true, byReference: true });
    expect(byId).toEqual({
      kind: 'media',
      media: { kind: 'document', mimeType: 'application/pdf', fileName: 'catalogo.pdf', file: 'f1' },
      caption: 'Oi Ana',
    });
    const opened: string[] = [];
    const here = await buildMessage(withFile('document'), ana, {
      userId: 'acc',
      cloud: true,
      openFile: async (userId, id) => {
        opened.push(`${userId}/${id}`);
        return {
          mimeType: 'application/pdf',
          fileName: 'catalogo.pdf',
          size: 9,
          sha256: null,
          open: async () => (async function* () {})(),
        };
      },
    });
    expect(opened).toEqual(['acc/f1']);
    expect(here).toMatchObject({ kind: 'media', media: { file: 'f1', size: 9 }, caption: 'Oi Ana' });
  });

  it('sends a voice note without a caption, and the text alone when the file is gone', async () => {
    const voice = await buildMessage({ ...withFile('audio'), message: '' }, ana, {
      userId: 'acc',
      cloud: false,
      byReference: true,
    });
    expect(voice).toEqual({
      kind: 'media',
      media: { kind: 'audio', mimeType: 'audio/ogg', fileName: 'voz.ogg', file: 'f1', voice: true, durationSeconds: 7 },
    });
    const gone = await buildMessage({ ...withFile('document'), mediaFile: null }, ana, { userId: 'acc', cloud: false });
    expect(gone).toEqual({ kind: 'text', text: 'Oi Ana' });
  });
});
