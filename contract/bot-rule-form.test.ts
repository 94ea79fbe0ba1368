import { describe, expect, it } from 'vitest';
import { autoReplyForm, botMsg } from './bot';
import { sendContentMsg } from './message-content';

const draft = { trigger: 'onde', response: '', imageUrl: '', buttons: [] };
const rootError = (r: ReturnType<ReturnType<typeof autoReplyForm>['safeParse']>) =>
  r.success ? null : r.error.issues[0]?.message;

describe('the rule editor with the new types', () => {
  it('takes a location typed as text, with a comma or a point, and no text of its own', () => {
    const parsed = autoReplyForm([]).safeParse({
      ...draft,
      type: 'location',
      location: { latitude: '-23,5505', longitude: '-46.6333', name: 'Loja', address: '' },
    });
    expect(parsed.success && parsed.data).toMatchObject({
      type: 'location',
      location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja' },
      contactCard: null,
      mediaUrl: '',
    });
  });

  it('says in Portuguese what a location, a card or a file lacks', () => {
    const form = autoReplyForm([]);
    expect(rootError(form.safeParse({ ...draft, type: 'location' }))).toBe(botMsg.locationRequired);
    expect(
      rootError(form.safeParse({ ...draft, type: 'location', location: { latitude: '91', longitude: '0' } })),
    ).toBe(sendContentMsg.latitudeInvalid);
    expect(rootError(form.safeParse({ ...draft, type: 'contact', contactCard: { name: 'Ana', phone: '12' } }))).toBe(
      sendContentMsg.contactPhoneInvalid,
    );
    expect(rootError(form.safeParse({ ...draft, type: 'document' }))).toBe(botMsg.mediaRequired);
    expect(rootError(form.safeParse({ ...draft, type: 'text' }))).toBe(botMsg.autoMessageRequired);
  });
});

describe('the rule editor’s queue', () => {
  const queue = '3F2504E0-4F89-41D3-9A0C-0305E82C3301';
  it('hands the conversation to the chosen queue, or to none', () => {
    const form = autoReplyForm([]);
    const chosen = form.safeParse({ ...draft, type: 'text', response: 'Já te passo ao financeiro.', queueId: queue });
    expect(chosen.success && chosen.data.queueId).toBe(queue.toLowerCase());
    const none = form.safeParse({ ...draft, type: 'text', response: 'Olá!', queueId: '' });
    expect(none.success && none.data.queueId).toBeNull();
    expect(rootError(form.safeParse({ ...draft, type: 'text', response: 'Olá!', queueId: 'financeiro' }))).toBe(
      botMsg.queueNotFound,
    );
  });
});
