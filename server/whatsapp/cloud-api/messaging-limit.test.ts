import { describe, expect, it } from 'vitest';
import { parseMessagingLimit } from './cloud-driver';

describe("Meta's messaging limit as the Graph API answers it", () => {
  it('reads tiers, numbers and unlimited', () => {
    expect(parseMessagingLimit('TIER_250')).toBe(250);
    expect(parseMessagingLimit('TIER_2K')).toBe(2000);
    expect(parseMessagingLimit('tier_100k')).toBe(100_000);
    expect(parseMessagingLimit('TIER_UNLIMITED')).toBe('unlimited');
    expect(parseMessagingLimit(10_000)).toBe(10_000);
    expect(parseMessagingLimit(-1)).toBe('unlimited');
    expect(parseMessagingLimit({ max_daily_conversations_per_business: 2000 })).toBe(2000);
  });

  it('is unknown when it cannot be read', () => {
    expect(parseMessagingLimit(undefined)).toBeNull();
    expect(parseMessagingLimit('')).toBeNull();
    expect(parseMessagingLimit('AMARELO')).toBeNull();
    expect(parseMessagingLimit({})).toBeNull();
    expect(parseMessagingLimit(0)).toBeNull();
  });
});
