import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '#contract/conversations';
import type { MessageMedia } from '#contract/message-content';
import {
  audioLabel,
  captionText,
  documentIcon,
  formatFileSize,
  mediaLabel,
  mediaState,
  reactionText,
  saveContactHref,
} from './message-content-view';

const media = (over: Partial<MessageMedia> = {}): MessageMedia => ({
  kind: 'document',
  mimeType: 'application/pdf',
  fileName: 'catalogo.pdf',
  size: 1_258_291,
  url: '/api/uploads/abc',
  ...over,
});

const content = (over: Partial<ConversationMessage> = {}) => ({ text: '', ...over });

describe('message content view', () => {
  it('writes a file size in pt-BR, and nothing while it is unknown', () => {
    expect(formatFileSize(0)).toBeNull();
    expect(formatFileSize(-1)).toBeNull();
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(800)).toBe('800 bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(350 * 1024)).toBe('350 KB');
    expect(formatFileSize(1_258_291)).toBe('1,2 MB');
    expect(formatFileSize(100 * 1024 * 1024)).toBe('100,0 MB');
    expect(formatFileSize(2 * 1024 ** 3)).toBe('2,0 GB');
  });

  it('picks a document icon from its type, else its extension', () => {
    expect(documentIcon(media())).toBe('text');
    expect(documentIcon(media({ mimeType: 'text/csv', fileName: 'lista' }))).toBe('spreadsheet');
    expect(documentIcon(media({ mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }))).toBe(
      'spreadsheet',
    );
    expect(documentIcon(media({ mimeType: 'application/octet-stream', fileName: 'Precos.XLSX' }))).toBe('spreadsheet');
    expect(documentIcon(media({ mimeType: 'application/zip', fileName: 'fotos.zip' }))).toBe('archive');
    expect(documentIcon(media({ mimeType: 'image/png', fileName: 'print.png' }))).toBe('image');
  });

  it('names a file by its name, else by its kind', () => {
    expect(mediaLabel(media({ kind: 'image', fileName: '' }))).toBe('Foto');
    expect(mediaLabel(media({ kind: 'image', fileName: 'vitrine.jpg' }))).toBe('vitrine.jpg');
    expect(mediaLabel(media({ kind: 'sticker', fileName: 'x.webp' }))).toBe('Figurinha');
    expect(mediaLabel(media({ kind: 'video', fileName: ' ' }))).toBe('Vídeo');
    expect(mediaLabel(media({ kind: 'audio', voice: true }))).toBe('Mensagem de voz');
    expect(mediaLabel(media({ kind: 'document', fileName: '' }))).toBe('Documento');
  });

  it('labels an audio as a voice note or a file, with its duration when known', () => {
    expect(audioLabel({ voice: true, durationSeconds: 12 })).toBe('Mensagem de voz · 0:12');
    expect(audioLabel({ voice: false, durationSeconds: 65 })).toBe('Áudio · 1:05');
    expect(audioLabel({})).toBe('Áudio');
  });

  it('reads an absent state as ready', () => {
    expect(mediaState({})).toBe('ready');
    expect(mediaState({ state: 'pending' })).toBe('pending');
    expect(mediaState({ state: 'failed' })).toBe('failed');
  });

  it('keeps a caption, but not a text that only repeats the card', () => {
    expect(captionText(content({ text: 'Olá' }))).toBe('Olá');
    expect(captionText(content({ media: media(), text: 'Segue o catálogo' }))).toBe('Segue o catálogo');
    expect(captionText(content({ media: media(), text: '📎 catalogo.pdf' }))).toBe('');
    expect(captionText(content({ location: { latitude: 1, longitude: 2, name: 'Loja' }, text: '📍 Loja' }))).toBe('');
    expect(captionText(content({ contactCard: { name: 'Ana', phone: null }, text: '👤 Ana' }))).toBe('');
    expect(captionText(content({ media: media(), text: '  ' }))).toBe('');
  });

  it('says what a reaction did', () => {
    expect(reactionText({ emoji: '👍' })).toBe('Reagiu com 👍');
    expect(reactionText({ emoji: '' })).toBe('Removeu a reação');
  });

  it('links a contact card to a new contact with its number and name', () => {
    expect(saveContactHref({ name: 'Ana Souza', phone: '5521998765432' })).toBe(
      '/contacts?novo=5521998765432&nome=Ana+Souza',
    );
    expect(saveContactHref({ name: ' ', phone: '5521998765432' })).toBe('/contacts?novo=5521998765432');
  });
});
