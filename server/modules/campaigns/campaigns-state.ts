import type { CampaignNumbers, CampaignProgress } from '../../../contract/campaigns';
import { stateSlot } from '../../lib/app-state';
import { TtlCache } from '../../lib/ttl-cache';
import { contactsState } from '../contacts';

/** How long the counters of a large campaign serve its polls (the card refreshes every 3 s anyway). */
const PROGRESS_TTL_MS = 2_000;
const PROGRESS_CACHE_MAX = 10_000;
/** How long a count of the contacts without a name serves the previews (each pause in typing asks again). */
const NAMELESS_TTL_MS = 15_000;
const NAMELESS_CACHE_MAX = 10_000;

/**
 * What one app keeps in memory about campaigns (`AppState`, server/README.md "Caches"). The counters
 * and the per-number report are keyed by campaign and stamped with the status they were counted
 * under: once the campaign's status changes (it finished, here or on another process) they are read
 * afresh. The nameless counts are keyed by account first (`namelessKey`) and dropped when the
 * account's contacts change, here or in another process.
 */
export class CampaignsState {
  readonly progress = new TtlCache<string, CampaignProgress>({
    ttlMs: PROGRESS_TTL_MS,
    maxEntries: PROGRESS_CACHE_MAX,
  });
  readonly numbers = new TtlCache<string, CampaignNumbers>({ ttlMs: PROGRESS_TTL_MS, maxEntries: PROGRESS_CACHE_MAX });
  readonly nameless = new TtlCache<string, { count: number; phones: string[] }>({
    ttlMs: NAMELESS_TTL_MS,
    maxEntries: NAMELESS_CACHE_MAX,
  });

  /** The contacts of `userId` changed (`null`: of every account). */
  contactsChanged(userId: string | null): void {
    if (userId === null) {
      this.nameless.clear();
      return;
    }
    const prefix = namelessKey(userId).slice(0, -1);
    this.nameless.deleteWhere((key) => key.startsWith(prefix));
  }
}

/** The nameless cache's key: the account first, then what narrows the count. */
export function namelessKey(userId: string, ...rest: unknown[]): string {
  return JSON.stringify([userId, ...rest]);
}

export const campaignsSlot = stateSlot('campaigns', (state) => {
  const campaigns = new CampaignsState();
  contactsState(state).onChanged((userId) => campaigns.contactsChanged(userId));
  return campaigns;
});
