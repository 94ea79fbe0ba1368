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
