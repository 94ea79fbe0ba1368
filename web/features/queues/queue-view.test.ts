import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Queue, queueInput, queuesMsg } from '#contract/queues';
import { deleteQueue } from './api/delete-queue';
import { createQueue, updateQueue } from './api/save-queue';
import {
  daysText,
  defaultQueueHours,
  hoursText,
  namesText,
  openConversationsText,
  queueFormValues,
  toggleId,
  toggleWeekday,
  weekdaysOf,
} from './queue-view';

const VENDAS = 'a3bb189e-8bf9-4888-9912-ace4e6543002';
const SUPORTE = 'b4cc290f-9c0a-4999-8a23-bdf5f7654113';
const ANA = '6f1c2a9e-3b7d-4c11-9a2e-5d8f0b1c2d3e';

const queue = (over: Partial<Queue> = {}): Queue => ({
  id: 'd7c1f0a2-4b3e-4f5a-9c8d-7e6f5a4b3c2d',
  name: 'Financeiro',
  connectionIds: [VENDAS],
  memberIds: [ANA],
  hours: { start: '08:00', end: '17:00', days: ['friday', 'monday', 'someday'] },
  outOfHoursMessage: 'Voltamos amanhã.',
  assignment: 'round_robin',
  openConversations: 2,
  createdAt: '2026-11-22T12:00:00.000Z',
  ...over,
});

describe('the days and hours', () => {
  it('name every day, none, a range of three or more, and single days', () => {
    expect(daysText(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])).toBe(
      'Todos os dias',
    );
    expect(daysText([])).toBe('Nenhum dia');
    expect(daysText(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'])).toBe('Seg a Sex');
    expect(daysText(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday'])).toBe('Seg a Sex, Dom');
    expect(daysText(['monday', 'wednesday', 'friday'])).toBe('Seg, Qua, Sex');
    expect(daysText(['saturday', 'sunday'])).toBe('Sáb, Dom');
    expect(daysText(['tuesday', 'wednesday', 'thursday', 'saturday'])).toBe('Ter a Qui, Sáb');
  });

  it('say 24 horas for a queue always open, else the days and the times', () => {
    expect(hoursText(null)).toBe('24 horas');
    expect(hoursText(undefined)).toBe('24 horas');
    expect(
      hoursText({ start: '09:00', end: '18:00', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] }),
    ).toBe('Seg a Sex · 09:00 às 18:00');
  });

  it('keep the week’s order and leave out what is not a weekday', () => {
    expect(weekdaysOf(['sunday', 'monday', 'nope'])).toEqual(['monday', 'sunday']);
    expect(toggleWeekday(['friday'], 'monday')).toEqual(['monday', 'friday']);
    expect(toggleWeekday(['monday', 'friday'], 'monday')).toEqual(['friday']);
  });

  it('start a queue’s hours on weekdays, 9 to 6, valid for the contract', () => {
    const hours = defaultQueueHours();
    expect(hours).toEqual({
      start: '09:00',
      end: '18:00',
      days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    });
    // A fresh list each time: the form edits it.
    expect(defaultQueueHours().days).not.toBe(hours.days);
    expect(queueInput.safeParse({ name: 'Vendas', hours }).success).toBe(true);
  });
});

describe('the names on a card', () => {
  const names = new Map([
    [VENDAS, 'Vendas'],
    [SUPORTE, 'Suporte'],
  ]);
  const words = { one: 'número', other: 'números', none: 'Nenhum' };

  it('list the names known, in the queue’s order, and count the others', () => {
    expect(namesText([SUPORTE, VENDAS], names, words)).toBe('Suporte, Vendas');
    expect(namesText([VENDAS, ANA], names, words)).toBe('Vendas +1');
    expect(namesText([], names, words)).toBe('Nenhum');
  });

  it('count them when the names cannot be read (an agent and the numbers)', () => {
    expect(namesText([VENDAS], undefined, words)).toBe('1 número');
    expect(namesText([VENDAS, SUPORTE], undefined, words)).toBe('2 números');
    expect(namesText([ANA], names, words)).toBe('1 número');
  });

  it('say how many conversations are open', () => {
    expect(openConversationsText(0)).toBe('Nenhuma conversa aberta');
    expect(openConversationsText(1)).toBe('1 conversa aberta');
    expect(openConversationsText(1234)).toBe('1.234 conversas abertas');
  });
});

describe('the dialog’s values', () => {
  it('start a new queue empty, open around the clock, first to take it', () => {
    const values = queueFormValues(null);
    expect(values).toEqual({
      name: '',
      connectionIds: [],
      memberIds: [],
      hours: null,
      outOfHoursMessage: '',
      assignment: 'manual',
    });
    // Saved as it is, only the name is missing.
    const parsed = queueInput.safeParse(values);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['name', queuesMsg.nameRequired]]);
  });

  it('take a queue’s fields, its days as weekdays, and save back what it had', () => {
    const values = queueFormValues(queue());
    expect(values).toEqual({
      name: 'Financeiro',
      connectionIds: [VENDAS],
      memberIds: [ANA],
      hours: { start: '08:00', end: '17:00', days: ['monday', 'friday'] },
      outOfHoursMessage: 'Voltamos amanhã.',
      assignment: 'round_robin',
    });
    expect(queueInput.parse(values)).toEqual(values);
    expect(queueFormValues(queue({ hours: null })).hours).toBeNull();
  });

  it('find a bad hour where the dialog shows it, under Fim', () => {
    const parsed = queueInput.safeParse({
      ...queueFormValues(queue()),
      hours: { start: '18:00', end: '09:00', days: ['monday'] },
    });
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['hours.end']);
  });

  it('tick and untick an id once, the order kept', () => {
    expect(toggleId([VENDAS], SUPORTE, true)).toEqual([VENDAS, SUPORTE]);
    expect(toggleId([VENDAS, SUPORTE], VENDAS, true)).toEqual([SUPORTE, VENDAS]);
    expect(toggleId([VENDAS, SUPORTE], VENDAS, false)).toEqual([SUPORTE]);
    expect(toggleId([], VENDAS, false)).toEqual([]);
  });
});

describe('the calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('create, replace and delete a queue by its id', async () => {
    const calls: { method: string; url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined });
        return new Response(JSON.stringify({ success: true, message: 'ok', queue: queue() }), { status: 200 });
      }),
    );
    const input = queueInput.parse({ name: 'Financeiro' });
    await createQueue(input);
    await updateQueue('d7c1f0a2-4b3e-4f5a-9c8d-7e6f5a4b3c2d', input);
    await deleteQueue('d7c1f0a2-4b3e-4f5a-9c8d-7e6f5a4b3c2d');
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['POST', '/api/queues'],
      ['PUT', '/api/queues/d7c1f0a2-4b3e-4f5a-9c8d-7e6f5a4b3c2d'],
      ['DELETE', '/api/queues/d7c1f0a2-4b3e-4f5a-9c8d-7e6f5a4b3c2d'],
    ]);
    expect(calls[0].body).toEqual({
      name: 'Financeiro',
      connectionIds: [],
      memberIds: [],
      hours: null,
      outOfHoursMessage: '',
      assignment: 'manual',
    });
  });
});
