import { describe, expect, it } from 'vitest';
import { type Campaign, campaignMsg } from '#contract/campaigns';
import { campaignsRefetchInterval } from './api/get-campaigns';
import {
  audienceText,
  campaignAttachments,
  campaignFigures,
  createdText,
  draftAttachments,
  expectedFinishText,
  filterCampaigns,
  fromDateTimeLocal,
  progressSummary,
  toDateTimeLocal,
  waitingText,
} from './campaign-view';
import { campaignStatus, canRunAction, deliveryRateTone, isRunningStatus } from './status';

const progress = { total: 10, queued: 2, sending: 1, sent: 2, delivered: 2, read: 1, failed: 1, skipped: 1 };

describe('campaign status', () => {
  it('takes labels and colours from the contract and shows unknown statuses raw', () => {
    expect(campaignStatus('draft')).toEqual({ label: 'Rascunho', tone: 'neutral' });
    expect(campaignStatus('scheduled')).toEqual({ label: 'Agendada', tone: 'yellow' });
    expect(campaignStatus('in_progress')).toEqual({ label: 'Em andamento', tone: 'blue' });
    expect(campaignStatus('completed')).toEqual({ label: 'Concluída', tone: 'green' });
    expect(campaignStatus('failed')).toEqual({ label: 'Falhou', tone: 'red' });
    expect(campaignStatus('paused').label).toBe('Pausada');
    expect(campaignStatus('arquivada')).toEqual({ label: 'arquivada', tone: 'outline' });
    expect(campaignStatus('toString').label).toBe('toString');
  });

  it('colours the delivery rate at 90 % and 70 %', () => {
    expect(deliveryRateTone(90)).toBe('green');
    expect(deliveryRateTone(89.9)).toBe('yellow');
    expect(deliveryRateTone(70)).toBe('yellow');
    expect(deliveryRateTone(69.9)).toBe('red');
  });

  it("counts a card's figures by the contract: the delivery rate is over sent or failed", () => {
    const card = (messagesSent: number, messagesDelivered: number, read: number, failed: number) => ({
      messagesSent,
      messagesDelivered,
      messagesRead: read,
      progress: {
        ...progress,
        sent: messagesSent - messagesDelivered,
        delivered: messagesDelivered - read,
        read,
        failed,
      },
    });
    // The user's campaign: 51 sent, 50 delivered, 6 failed is 50 ÷ 57, not 98 % (50 ÷ 51) nor 100 %.
    expect(campaignFigures(card(51, 50, 20, 6))).toEqual({
      sent: 51,
      delivered: 50,
      read: 20,
      failed: 6,
      attempted: 57,
      deliveryRate: 87.7,
      tone: 'yellow',
    });
    expect(campaignFigures(card(8, 6, 0, 0))).toMatchObject({ deliveryRate: 75, tone: 'yellow' });
    // Nothing tried: 0 %, shown neutral; only failures: 0 %, red.
    expect(campaignFigures(card(0, 0, 0, 0))).toMatchObject({ attempted: 0, deliveryRate: 0, tone: 'neutral' });
    expect(campaignFigures(card(0, 0, 0, 3))).toMatchObject({ attempted: 3, deliveryRate: 0, tone: 'red' });
    // A list answer without progress (a draft) has no failures to count.
    expect(campaignFigures({ messagesSent: 0, messagesDelivered: 0 })).toMatchObject({ failed: 0, read: 0 });
  });

  it('offers each action only from the statuses the contract allows', () => {
    expect(canRunAction('send', 'draft')).toBe(true);
    expect(canRunAction('send', 'completed')).toBe(false);
    expect(canRunAction('pause', 'sending')).toBe(true);
    expect(canRunAction('pause', 'paused')).toBe(false);
    expect(canRunAction('resume', 'paused')).toBe(true);
    expect(canRunAction('cancel', 'draft')).toBe(false);
    expect(canRunAction('edit', 'scheduled')).toBe(true);
    expect(canRunAction('edit', 'whatever')).toBe(false);
  });

  it('polls the list only while some campaign is scheduled or sending', () => {
    const at = (status: string) => ({ status }) as Campaign;
    expect(isRunningStatus('in_progress')).toBe(true);
    expect(isRunningStatus('paused')).toBe(false);
    expect(campaignsRefetchInterval(undefined)).toBe(false);
    expect(campaignsRefetchInterval(null)).toBe(false);
    expect(campaignsRefetchInterval([at('draft'), at('completed'), at('paused')])).toBe(false);
    expect(campaignsRefetchInterval([at('draft'), at('sending')])).toBe(3000);
    expect(campaignsRefetchInterval([at('scheduled')])).toBe(3000);
  });

  it('keeps polling for a short while after a campaign completes, for its receipts', () => {
    const now = Date.parse('2026-11-22T13:00:00Z');
    const done = (finishedAt: string | null) => ({ status: 'completed', finishedAt }) as Campaign;
    expect(campaignsRefetchInterval([done('2026-11-22T12:59:00Z')], now)).toBe(3000);
    expect(campaignsRefetchInterval([done('2026-11-22T12:57:59Z')], now)).toBe(false);
    expect(campaignsRefetchInterval([done(null)], now)).toBe(false);
    expect(campaignsRefetchInterval([{ ...done('2026-11-22T12:59:00Z'), status: 'cancelled' }], now)).toBe(false);
  });
});

describe('campaign search', () => {
  const list = [
    { name: 'Promoção de Natal', message: 'Olá {{nome}}!' },
    { name: 'Boas-vindas', message: 'Seja bem-vindo à LOJA' },
  ];

  it('matches name or message, case-insensitively, and keeps everything for an empty query', () => {
    expect(filterCampaigns(list, 'natal')).toEqual([list[0]]);
    expect(filterCampaigns(list, 'PROMOÇÃO')).toEqual([list[0]]);
    expect(filterCampaigns(list, 'loja')).toEqual([list[1]]);
    expect(filterCampaigns(list, '  ')).toEqual(list);
    expect(filterCampaigns(list, 'black friday')).toEqual([]);
  });
});

describe('campaign card texts', () => {
  it('describes the audience', () => {
    expect(audienceText({ targetType: 'all', targetGroups: [] })).toBe('Todos os contatos e grupos');
    expect(audienceText({ targetType: 'contacts', targetGroups: [], targetTags: [] })).toBe('Contatos');
    expect(audienceText({ targetType: 'contacts', targetGroups: [], targetTags: ['vip'] })).toBe(
      'Contatos com a tag vip',
    );
    expect(audienceText({ targetType: 'contacts', targetGroups: [], targetTags: ['vip', 'lead'] })).toBe(
      'Contatos com as tags vip, lead',
    );
    expect(audienceText({ targetType: 'groups', targetGroups: ['Clientes', 'Equipe'] })).toBe(
      'Grupos: Clientes, Equipe',
    );
    expect(audienceText({ targetType: 'groups', targetGroups: [] })).toBe('Grupos específicos');
  });

  it('writes the creation date the Brazilian way', () => {
    expect(createdText(new Date(2026, 10, 22, 14, 5).toISOString())).toBe('Criada em 22/11/2026');
    expect(createdText('not a date')).toBe('');
  });

  it('gives the waiting reason from the contract and ignores unknown ones', () => {
    expect(waitingText('outside_hours')).toBe(campaignMsg.waiting.outside_hours);
    expect(waitingText('daily_limit')).toBe(campaignMsg.waiting.daily_limit);
    expect(waitingText('numbers_stopped')).toBe(campaignMsg.waiting.numbers_stopped);
    expect(waitingText(null)).toBeNull();
    expect(waitingText('constructor')).toBeNull();
  });
});

describe('progressSummary', () => {
  it('splits the total into buckets that add up, with queued and sending together', () => {
    const s = progressSummary(progress);
    expect(s.total).toBe(10);
    expect(s.processed).toBe(7);
    expect(s.percent).toBe(70);
    expect(s.segments.map((x) => [x.key, x.count, x.percent])).toEqual([
      ['read', 1, 10],
      ['delivered', 2, 20],
      ['sent', 2, 20],
      ['failed', 1, 10],
      ['skipped', 1, 10],
      ['pending', 3, 30],
    ]);
    expect(s.segments.reduce((sum, x) => sum + x.percent, 0)).toBe(100);
    // Where each recipient is now: never the card's own names ('Enviadas', 'Entregues'), which count
    // every message that reached the step, so a legend 'Enviadas 0' cannot sit beside 'Enviadas 51'.
    expect(s.segments.map((x) => x.label)).toEqual([
      'Lidas',
      'Entregues, não lidas',
      'Aguardando entrega',
      'Falharam',
      'Ignoradas',
      'Na fila',
    ]);
  });

  it('reaches 100 % only when nothing is left and survives an empty campaign', () => {
    expect(
      progressSummary({
        ...progress,
        total: 1000,
        queued: 1,
        sending: 0,
        sent: 999,
        delivered: 0,
        read: 0,
        failed: 0,
        skipped: 0,
      }).percent,
    ).toBe(99);
    expect(
      progressSummary({ total: 3, queued: 0, sending: 0, sent: 0, delivered: 1, read: 2, failed: 0, skipped: 0 })
        .percent,
    ).toBe(100);
    const empty = progressSummary({
      total: 0,
      queued: 0,
      sending: 0,
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      skipped: 0,
    });
    expect(empty.percent).toBe(0);
    expect(empty.segments.every((x) => x.percent === 0)).toBe(true);
  });
});

describe('expectedFinishText', () => {
  const now = new Date(2026, 10, 22, 10, 0).getTime();

  it('says the send confirmation’s words: minutes, today’s clock, tomorrow, a date', () => {
    expect(expectedFinishText(new Date(now + 30_000).toISOString(), now)).toBe('Término previsto em menos de 1 min');
    expect(expectedFinishText(new Date(now - 5_000).toISOString(), now)).toBe('Término previsto em menos de 1 min');
    expect(expectedFinishText(new Date(2026, 10, 22, 10, 45).toISOString(), now)).toBe('Término previsto em ~45 min');
    expect(expectedFinishText(new Date(2026, 10, 22, 11, 23).toISOString(), now)).toBe(
      'Término previsto em ~1 h 23 min (hoje às 11:23)',
    );
    // Outside business hours the forecast lands on the next opening: the card says so, as the confirmation did.
    expect(expectedFinishText(new Date(2026, 10, 23, 9, 2).toISOString(), now)).toBe(
      'Término previsto amanhã às 09:02',
    );
    expect(expectedFinishText(new Date(2026, 10, 25, 9, 0).toISOString(), now)).toBe(
      'Término previsto em 25/11/2026 09:00',
    );
  });

  it('says nothing without a valid time', () => {
    expect(expectedFinishText(null, now)).toBeNull();
    expect(expectedFinishText(undefined, now)).toBeNull();
    expect(expectedFinishText('amanhã', now)).toBeNull();
  });
});

describe('datetime-local values', () => {
  it('round-trips through ISO in the local time zone', () => {
    const iso = fromDateTimeLocal('2026-11-22T14:05');
    expect(iso).toBe(new Date(2026, 10, 22, 14, 5).toISOString());
    expect(toDateTimeLocal(iso)).toBe('2026-11-22T14:05');
    expect(fromDateTimeLocal('')).toBeNull();
    expect(fromDateTimeLocal('22/11/2026 14:05')).toBeNull();
    expect(toDateTimeLocal(null)).toBe('');
    expect(toDateTimeLocal('nope')).toBe('');
  });
});

describe('what a campaign carries besides its text', () => {
  it('lists the file by its kind and name, the location and the card, for the card and the preview', () => {
    expect(
      campaignAttachments({
        mediaUrl: 'upload:f1',
        media: { kind: 'document', mimeType: 'application/pdf', fileName: 'catalogo.pdf', size: 10 },
        location: { latitude: 1, longitude: 2 },
        contactCard: { name: 'Ana', phone: '5521998765432' },
      } as Parameters<typeof campaignAttachments>[0]),
    ).toEqual(['📎 catalogo.pdf', '📍 Localização', '👤 Cartão de contato']);
    expect(campaignAttachments({ mediaUrl: null, media: null, location: null, contactCard: null })).toEqual([]);
    expect(
      draftAttachments({
        mediaUrl: 'upload:f1',
        mediaFile: { kind: 'audio', fileName: 'recado.ogg' },
        location: { name: ' Loja Centro ' },
        contactCard: { name: '' },
      }),
    ).toEqual(['🎵 recado.ogg', '📍 Localização: Loja Centro', '👤 Cartão de contato']);
    expect(draftAttachments({ mediaUrl: null, location: null })).toEqual([]);
  });
});
