import { describe, expect, it } from 'vitest';
import { CAPTION_MAX, FILE_NAME_MAX, PLACE_TEXT_MAX, WEBHOOK_ID_MAX, webhookEvents } from './webhook';

const PHONE_ID = '1000';

/** One inbound message in a delivery shaped as Meta's webhook reference shows it. */
function inbound(message: Record<string, unknown>) {
  const events = webhookEvents(
    {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba',
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { phone_number_id: PHONE_ID, display_phone_number: '5511999990000' },
                contacts: [{ wa_id: '5511988887777', profile: { name: 'Ana' } }],
                messages: [{ from: '5511988887777', id: 'wamid.1', timestamp: '1700000000', ...message }],
              },
            },
          ],
        },
      ],
    },
    PHONE_ID,
  );
  expect(events).toHaveLength(1);
  const event = events[0];
  if (!('inbound' in event)) throw new Error('no inbound message');
  expect(event.key).toBe('msg:wamid.1');
  return event.inbound;
}

describe('Cloud API webhook: what a message carries', () => {
  it('an image: its caption is the text, its id where the bytes are', () => {
    const m = inbound({
      type: 'image',
      image: { id: 'img1', mime_type: 'image/jpeg', sha256: 'abc', caption: 'Olha' },
    });
    expect(m).toMatchObject({ text: 'Olha', pushName: 'Ana', from: '5511988887777' });
    expect(m.media).toEqual({ kind: 'image', mimeType: 'image/jpeg', source: { via: 'cloud', mediaId: 'img1' } });
    expect(inbound({ type: 'image', image: { id: 'img1', mime_type: 'image/jpeg' } }).text).toBe('');
  });

  it('a document keeps its file name', () => {
    const m = inbound({
      type: 'document',
      document: { id: 'doc1', mime_type: 'application/pdf', filename: 'catalogo.pdf', caption: 'Segue' },
    });
    expect(m.text).toBe('Segue');
    expect(m.media).toEqual({
      kind: 'document',
      mimeType: 'application/pdf',
      fileName: 'catalogo.pdf',
      source: { via: 'cloud', mediaId: 'doc1' },
    });
  });

  it('a voice note and an audio file; the mime type without its parameters', () => {
    const voice = inbound({ type: 'audio', audio: { id: 'a1', mime_type: 'audio/ogg; codecs=opus', voice: true } });
    expect(voice.media).toEqual({
      kind: 'audio',
      mimeType: 'audio/ogg',
      voice: true,
      source: { via: 'cloud', mediaId: 'a1' },
    });
    expect(voice.text).toBe('');
    const file = inbound({ type: 'audio', audio: { id: 'a2', mime_type: 'Audio/MPEG' } });
    expect(file.media).toMatchObject({ kind: 'audio', mimeType: 'audio/mpeg', voice: false });
  });

  it('a video and a sticker', () => {
    const video = inbound({ type: 'video', video: { id: 'v1', mime_type: 'video/mp4', caption: 'Veja' } });
    expect(video).toMatchObject({ text: 'Veja', media: { kind: 'video', mimeType: 'video/mp4' } });
    const sticker = inbound({ type: 'sticker', sticker: { id: 's1', mime_type: 'image/webp', animated: false } });
    expect(sticker).toMatchObject({ text: '', media: { kind: 'sticker', mimeType: 'image/webp' } });
    expect(sticker.media?.source).toEqual({ via: 'cloud', mediaId: 's1' });
  });

  it('bounds what it keeps of a file: name, caption, mime type, id', () => {
    const long = inbound({
      type: 'document',
      document: { id: 'd', mime_type: 'application/pdf', filename: 'x'.repeat(1000), caption: 'y'.repeat(10_000) },
    });
    expect(long.media?.fileName).toHaveLength(FILE_NAME_MAX);
    expect(long.text).toHaveLength(CAPTION_MAX);
    for (const mime of ['text/html<script>', 'a'.repeat(200), 'image', 42, undefined]) {
      const m = inbound({ type: 'image', image: { id: 'i', mime_type: mime } });
      expect(m.media?.mimeType, String(mime)).toBe('application/octet-stream');
    }
    for (const id of ['x'.repeat(WEBHOOK_ID_MAX + 1), '', 12, undefined]) {
      const m = inbound({ type: 'image', image: { id, mime_type: 'image/png' } });
      expect(m, String(id)).toMatchObject({ text: '', unsupported: 'image' });
      expect(m.media).toBeUndefined();
    }
    expect(inbound({ type: 'video' })).toMatchObject({ text: '', unsupported: 'video' });
  });

  it('a location, its numbers checked and its texts bounded', () => {
    const m = inbound({
      type: 'location',
      location: { latitude: -23.55, longitude: -46.63, name: 'Loja', address: 'a'.repeat(600) },
    });
    expect(m.text).toBe('');
    expect(m.location).toMatchObject({ latitude: -23.55, longitude: -46.63, name: 'Loja' });
    expect(m.location?.address).toHaveLength(PLACE_TEXT_MAX);
    expect(inbound({ type: 'location', location: { latitude: 1, longitude: 2 } }).location).toEqual({
      latitude: 1,
      longitude: 2,
    });
    for (const location of [
      { latitude: 91, longitude: 0 },
      { latitude: 0, longitude: -181 },
      { latitude: '1', longitude: 2 },
      null,
    ]) {
      expect(inbound({ type: 'location', location }), JSON.stringify(location)).toMatchObject({
        text: '',
        unsupported: 'location',
      });
    }
  });

  it('a contact card: the first one, its WhatsApp number or the digits written', () => {
    const m = inbound({
      type: 'contacts',
      contacts: [
        { name: { formatted_name: 'João Silva' }, phones: [{ phone: '+55 11 97777-6666', wa_id: '5511977776666' }] },
        { name: { formatted_name: 'Outro' } },
      ],
    });
    expect(m).toMatchObject({ text: '', contactCard: { name: 'João Silva', phone: '5511977776666' } });
    const written = inbound({
      type: 'contacts',
      contacts: [{ name: { formatted_name: 'Maria' }, phones: [{ phone: '+55 (11) 3333-4444' }] }],
    });
    expect(written.contactCard).toEqual({ name: 'Maria', phone: '551133334444' });
    const none = inbound({ type: 'contacts', contacts: [{ name: { formatted_name: 'Sem número' } }] });
    expect(none.contactCard).toEqual({ name: 'Sem número', phone: null });
    expect(inbound({ type: 'contacts', contacts: [] })).toMatchObject({ unsupported: 'contacts' });
  });

  it('a reaction, and one taken back', () => {
    const m = inbound({ type: 'reaction', reaction: { message_id: 'wamid.OUR', emoji: '👍' } });
    expect(m).toMatchObject({ text: '', reaction: { emoji: '👍', providerMessageId: 'wamid.OUR' } });
    const back = inbound({ type: 'reaction', reaction: { message_id: 'wamid.OUR' } });
    expect(back.reaction).toEqual({ emoji: '', providerMessageId: 'wamid.OUR' });
    expect(inbound({ type: 'reaction', reaction: { emoji: '👍' } })).toMatchObject({ unsupported: 'reaction' });
  });

  it('a reply names the message it quotes, whatever it carries', () => {
    const text = inbound({ type: 'text', text: { body: 'Sim' }, context: { from: '5511999990000', id: 'wamid.Q' } });
    expect(text).toMatchObject({ text: 'Sim', replyTo: 'wamid.Q' });
    const image = inbound({ type: 'image', image: { id: 'i', mime_type: 'image/png' }, context: { id: 'wamid.Q2' } });
    expect(image.replyTo).toBe('wamid.Q2');
    expect(inbound({ type: 'text', text: { body: 'x' }, context: { id: 'x'.repeat(300) } }).replyTo).toBeUndefined();
    expect(inbound({ type: 'text', text: { body: 'x' } }).replyTo).toBeUndefined();
  });

  it('text and button answers as before', () => {
    expect(inbound({ type: 'text', text: { body: 'Oi' } })).toMatchObject({ text: 'Oi' });
    expect(inbound({ text: { body: 'sem tipo' } }).text).toBe('sem tipo');
    const pressed = inbound({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Quero' } },
    });
    expect(pressed).toMatchObject({ text: 'Quero', buttonId: 'b1', choice: { said: 'Quero', option: 'Quero' } });
    const template = inbound({ type: 'button', button: { payload: 'STOP', text: 'Parar' } });
    expect(template).toMatchObject({ text: 'Parar', buttonId: 'STOP' });
  });

  it('any other type arrives as unsupported, never empty', () => {
    for (const type of ['unsupported', 'order', 'system', 'request_welcome', 'ephemeral']) {
      const m = inbound({ type, [type]: {}, errors: [{ code: 131051 }] });
      expect(m, type).toMatchObject({ text: '', unsupported: type });
      expect(m.media ?? m.location ?? m.contactCard ?? m.reaction).toBeUndefined();
    }
    expect(inbound({ type: '<b>x</b>' }).unsupported).toBe('unknown');
    expect(inbound({ type: 'text' })).toMatchObject({ text: '', unsupported: 'text' });
    expect(inbound({})).toMatchObject({ text: '', unsupported: 'unknown' });
  });

  it('50 media messages cost about what 50 texts do (no I/O, linear)', () => {
    const delivery = (message: (i: number) => Record<string, unknown>) => ({
      entry: [
        {
          changes: [
            {
              field: 'messages',
              value: {
                messages: Array.from({ length: 50 }, (_, i) => ({ from: '551100', id: `w${i}`, ...message(i) })),
              },
            },
          ],
        },
      ],
    });
    const media = webhookEvents(
      delivery((i) => ({
        type: 'document',
        document: { id: `d${i}`, mime_type: 'application/pdf', filename: 'a.pdf' },
      })),
      PHONE_ID,
    );
    expect(media).toHaveLength(50);
    expect(media.every((e) => 'inbound' in e && e.inbound.media?.kind === 'document')).toBe(true);
  });
});
