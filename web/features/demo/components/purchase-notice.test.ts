import { describe, expect, it } from 'vitest';
import { noticeDelaySec, purchaseNoticeText } from './purchase-notice';

describe('demo purchase notice', () => {
  it('waits 3, 10, 15, 25, 40, 60, 90 s, then 90 s again', () => {
    expect(Array.from({ length: 10 }, (_, i) => noticeDelaySec(i))).toEqual([3, 10, 15, 25, 40, 60, 90, 90, 90, 90]);
  });

  it("says how long ago the real activation happened, in the app's one relative-time text", () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const text = (activatedAt: string) => purchaseNoticeText({ planLabel: 'Plano Profissional', activatedAt }, now);
    expect(text('2026-11-22T11:48:00Z')).toBe('Um cliente assinou o Plano Profissional 12m atrás');
    expect(text('2026-11-22T11:59:50Z')).toBe('Um cliente assinou o Plano Profissional agora');
    expect(text('2026-11-22T09:00:00Z')).toBe('Um cliente assinou o Plano Profissional 3h atrás');
    expect(text('2026-11-12T12:00:00Z')).toBe('Um cliente assinou o Plano Profissional 10d atrás');
  });
});
