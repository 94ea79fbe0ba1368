import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '#contract/connections';
import { chosenCapacityText } from './components/campaign-numbers-field';
import { showsNumbers, stoppedText } from './components/campaign-numbers-report';

const number = (id: string, dailyLimit: number, sentToday: number) => ({ id, dailyLimit, sentToday }) as ConnectionView;

describe('campaign over several numbers', () => {
  it('adds up what the chosen numbers may still send today, in pt-BR', () => {
    const list = [number('a', 1000, 100), number('b', 500, 0), number('c', 300, 400)];
    expect(chosenCapacityText(list, ['a', 'b'])).toBe('Capacidade hoje dos números escolhidos: 1.400 mensagens');
    // A number over its limit adds nothing; an unknown id neither.
    expect(chosenCapacityText(list, ['c', 'x'])).toBe('Capacidade hoje dos números escolhidos: 0 mensagens');
    expect(chosenCapacityText([number('a', 1, 0)], ['a'])).toBe('Capacidade hoje dos números escolhidos: 1 mensagem');
  });

  it('says why a number stopped, and nothing for an unknown reason', () => {
    expect(stoppedText('restricted')).toBe('Parou: restrito pelo WhatsApp');
    expect(stoppedText(null)).toBeNull();
    expect(stoppedText('constructor')).toBeNull();
  });

  it("shows 'Por número' for chosen numbers or when two numbers sent", () => {
    const line = { label: 'A', phoneNumber: null, kind: 'personal' as const, removed: false, stopReason: null };
    const counts = { queued: 0, sent: 1, delivered: 0, read: 0, failed: 0 };
    const one = { numbers: [{ connectionId: 'a', ...line, ...counts }], unassigned: 0 };
    const two = { numbers: [...one.numbers, { ...one.numbers[0], connectionId: 'b' }], unassigned: 0 };
    expect(showsNumbers([], one)).toBe(false);
    expect(showsNumbers(undefined, undefined)).toBe(false);
    expect(showsNumbers(['a'], one)).toBe(true);
    expect(showsNumbers([], two)).toBe(true);
  });
});
