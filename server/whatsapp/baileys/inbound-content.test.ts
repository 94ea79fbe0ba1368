import { proto } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { inboundContent, vcardPhone } from './inbound-content';

const key = new Uint8Array(32).fill(7);
const key64 = Buffer.from(key).toString('base64');
/** As it arrives from the socket: encoded and decoded, 64-bit fields as Long. */
const wire = (m: proto.IMessage) => proto.Message.decode(proto.Message.encode(m).finish());

const image = {
  url: 'https://mmg.whatsapp.net/v/t62.7118-24/abc.enc?ccb=11-4',
  directPath: '/v/t62.7118-24/abc.enc?ccb=11-4&oh=01&oe=6800',
  mediaKey: key,
  mimetype: 'image/jpeg',
  fileLength: 12345,
};

describe('inboundContent', () => {
  it('reads texts, captions and what a message quotes', () => {
    expect(inboundContent({ conversation: 'oi' })).toEqual({ text: 'oi' });
    expect(inboundContent({ extendedTextMessage: { text: 'sim', contextInfo: { stanzaId: 'Q1' } } })).toEqual({
      text: 'sim',
      replyTo: 'Q1',
    });
    expect(inboundContent({ buttonsResponseMessage: { selectedDisplayText: 'Preços' } })).toEqual({ text: 'Preços' });
    expect(inboundContent({ conversation: '' })).toBeNull();
  });

  it('maps an image with where to fetch it', () => {
    expect(
      inboundContent(wire({ imageMessage: { ...image, caption: 'foto', contextInfo: { stanzaId: 'Q2' } } })),
    ).toEqual({
      text: 'foto',
      replyTo: 'Q2',
      media: {
        kind: 'image',
        mimeType: 'image/jpeg',
        size: 12345,
        source: { via: 'baileys', directPath: image.directPath, mediaKey: key64, mediaType: 'image', url: image.url },
      },
    });
    expect(inboundContent({ imageMessage: image })?.text).toBe('');
  });

  it('maps documents, voice notes, audio, video and stickers', () => {
    const doc = inboundContent(
      wire({
        documentWithCaptionMessage: {
          message: {
            documentMessage: {
              ...image,
              mimetype: 'Application/PDF; charset=binary',
              fileName: `${'n'.repeat(300)}.pdf`,
              caption: 'contrato',
              fileLength: 5_000_000_000,
            },
          },
        },
      }),
    );
    expect(doc).toMatchObject({ text: 'contrato', media: { kind: 'document', mimeType: 'application/pdf' } });
    expect(doc?.media?.fileName).toHaveLength(255);
    expect(doc?.media?.size).toBe(5_000_000_000);
    expect(doc?.media?.source).toMatchObject({ mediaType: 'document' });

    expect(
      inboundContent({ audioMessage: { ...image, mimetype: 'audio/ogg; codecs=opus', seconds: 7, ptt: true } }),
    ).toMatchObject({ text: '', media: { kind: 'audio', mimeType: 'audio/ogg', durationSeconds: 7, voice: true } });
    const audio = inboundContent({ audioMessage: { ...image, mimetype: 'audio/mpeg', seconds: 200 } });
    expect(audio?.media).toMatchObject({ kind: 'audio', durationSeconds: 200 });
    expect(audio?.media?.voice).toBeUndefined();
    expect(
      inboundContent({ videoMessage: { ...image, mimetype: 'video/mp4', seconds: 12, caption: 'v' } }),
    ).toMatchObject({ text: 'v', media: { kind: 'video', durationSeconds: 12, source: { mediaType: 'video' } } });
    const sticker = inboundContent({ stickerMessage: { ...image, mimetype: 'image/webp', fileName: 'x' } as never });
    expect(sticker?.media).toMatchObject({ kind: 'sticker', mimeType: 'image/webp' });
    expect(sticker?.media?.fileName).toBeUndefined();
  });

  it('bounds what the sender controls and keeps only WhatsApp’s own CDN URL', () => {
    const media = inboundContent({
      imageMessage: { ...image, url: 'https://evil.example/x', mimetype: `image/${'x'.repeat(200)}` },
    })?.media;
    expect(media?.mimeType).toHaveLength(100);
    expect(media?.source).not.toHaveProperty('url');
    expect(
      inboundContent({ imageMessage: { ...image, url: 'https://mmg.whatsapp.net.evil.example/x' } })?.media?.source,
    ).not.toHaveProperty('url');
    expect(inboundContent({ imageMessage: { ...image, mimetype: '' } })?.media?.mimeType).toBe(
      'application/octet-stream',
    );
    expect(inboundContent({ imageMessage: { ...image, fileLength: -1 } })?.media).not.toHaveProperty('size');
  });

  it('answers unsupported for a file that cannot be fetched', () => {
    expect(inboundContent({ imageMessage: { ...image, directPath: null } })).toEqual({
      text: '',
      unsupported: 'image',
    });
    expect(inboundContent({ videoMessage: { ...image, mediaKey: null, caption: 'c' } })).toEqual({
      text: 'c',
      unsupported: 'video',
    });
    expect(inboundContent({ imageMessage: { ...image, directPath: `/${'a'.repeat(3000)}` } })).toMatchObject({
      unsupported: 'image',
    });
  });

  it('unwraps disappearing and view-once envelopes', () => {
    expect(inboundContent({ ephemeralMessage: { message: { conversation: 'some' } } })).toEqual({ text: 'some' });
    expect(
      inboundContent(
        wire({ ephemeralMessage: { message: { viewOnceMessageV2: { message: { imageMessage: image } } } } }),
      ),
    ).toMatchObject({ media: { kind: 'image' } });
    expect(inboundContent({ viewOnceMessage: { message: { videoMessage: image } } })).toMatchObject({
      media: { kind: 'video' },
    });
  });

  it('maps locations, in range only', () => {
    expect(
      inboundContent(
        wire({
          locationMessage: {
            degreesLatitude: -23.55,
            degreesLongitude: -46.63,
            name: 'Loja',
            address: 'Av. Paulista, 1000',
          },
        }),
      ),
    ).toEqual({
      text: '',
      location: { latitude: -23.55, longitude: -46.63, name: 'Loja', address: 'Av. Paulista, 1000' },
    });
    expect(
      inboundContent({ liveLocationMessage: { degreesLatitude: 1, degreesLongitude: 2, caption: 'aqui' } }),
    ).toEqual({ text: 'aqui', location: { latitude: 1, longitude: 2 } });
    expect(inboundContent({ locationMessage: { degreesLatitude: 91, degreesLongitude: 0 } })).toMatchObject({
      unsupported: 'location',
    });
    expect(inboundContent({ locationMessage: { degreesLatitude: Number.NaN, degreesLongitude: 0 } })).toMatchObject({
      unsupported: 'location',
    });
  });

  it('maps contact cards', () => {
    const vcard = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Ana Souza',
      'item1.TEL;waid=5511988887777:+55 11 98888-7777',
      'END:VCARD',
    ].join('\n');
    expect(inboundContent({ contactMessage: { displayName: 'Ana', vcard } })).toEqual({
      text: '',
      contactCard: { name: 'Ana', phone: '5511988887777' },
    });
    expect(
      inboundContent({
        contactsArrayMessage: {
          contacts: [
            { vcard: 'BEGIN:VCARD\r\nFN;CHARSET=UTF-8:Bia\r\nTEL;type=CELL:+55 (21) 9777-6666\r\nEND:VCARD' },
            {},
          ],
        },
      }),
    ).toEqual({ text: '', contactCard: { name: 'Bia', phone: '552197776666' } });
    expect(inboundContent({ contactMessage: { displayName: 'Sem número', vcard: 'BEGIN:VCARD\nEND:VCARD' } })).toEqual({
      text: '',
      contactCard: { name: 'Sem número', phone: null },
    });
    expect(vcardPhone('TEL:1234567890123456789')).toBeNull();
  });

  it('maps reactions and taking one back', () => {
    expect(inboundContent({ reactionMessage: { key: { id: 'M1' }, text: '👍' } })).toEqual({
      text: '',
      reaction: { emoji: '👍', providerMessageId: 'M1' },
    });
    expect(inboundContent({ reactionMessage: { key: { id: 'M1' }, text: '' } })?.reaction).toEqual({
      emoji: '',
      providerMessageId: 'M1',
    });
    expect(inboundContent({ reactionMessage: { key: {}, text: '👍' } })).toBeNull();
  });

  it('ignores signalling', () => {
    expect(inboundContent(null)).toBeNull();
    expect(inboundContent({})).toBeNull();
    expect(inboundContent(wire({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } }))).toBeNull();
    expect(
      inboundContent({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING } }),
    ).toBeNull();
    expect(inboundContent({ senderKeyDistributionMessage: { groupId: 'g' } })).toBeNull();
    expect(inboundContent({ messageContextInfo: {} })).toBeNull();
    // Alongside real content, the signalling is skipped.
    expect(
      inboundContent({ senderKeyDistributionMessage: { groupId: 'g' }, messageContextInfo: {}, conversation: 'oi' }),
    ).toEqual({ text: 'oi' });
  });

  it('names a kind it does not show', () => {
    expect(inboundContent(wire({ pollCreationMessageV3: { name: 'Qual?', options: [{ optionName: 'A' }] } }))).toEqual({
      text: '',
      unsupported: 'poll',
    });
    expect(inboundContent({ orderMessage: { orderId: '1' } })).toEqual({ text: '', unsupported: 'order' });
    expect(inboundContent({ ephemeralMessage: { message: { eventMessage: { name: 'x' } } } })).toEqual({
      text: '',
      unsupported: 'event',
    });
  });
});
