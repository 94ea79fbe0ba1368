import type { ContactStats, ContactTagCount } from '../../../contract/contacts';
import { type AppState, stateSlot } from '../../lib/app-state';
import { TtlCache } from '../../lib/ttl-cache';
import { SearchIndexes } from './search-index';
import { SpreadsheetReader } from './spreadsheet-parser';

/**
 * The stat cards' totals and the tag list are counts over the whole account: kept for a few seconds
 * so paging and typing in the search box do not recount 100,000 rows each time. This app's writes
 * drop the entry at once; another process's show within STATS_TTL_MS.
 */
const STATS_TTL_MS = 15_000;
const STATS_MAX_ACCOUNTS = 10_000;

type ChangeListener = (userId: string | null) => void;

/** What one app keeps in memory about its accounts' contacts (`AppState`, server/README.md "Caches"). */
export class ContactsState {
  readonly stats = new TtlCache<string, ContactStats>({ ttlMs: STATS_TTL_MS, maxEntries: STATS_MAX_ACCOUNTS });
  readonly tags = new TtlCache<string, ContactTagCount[]>({ ttlMs: STATS_TTL_MS, maxEntries: STATS_MAX_ACCOUNTS });
  readonly searchIndexes = new SearchIndexes();
  readonly spreadsheets = new SpreadsheetReader();
  private readonly listeners = new Set<ChangeListener>();
  private announce: (userId: string) => void = () => undefined;

  /**
   * The account's contacts changed: what this app keeps about them (stat cards, tags, search index,
   * and what other modules registered with `onChanged`) goes at once, and the other processes are
   * told (`announceWith`) so theirs goes too.
   */
  changed(userId: string): void {
    this.forget(userId);
    this.announce(userId);
  }

  /** Drops what this app keeps about the account's contacts; `null`: about every account. */
  forget(userId: string | null): void {
    if (userId === null) {
      this.stats.clear();
      this.tags.clear();
    } else {
      this.stats.delete(userId);
      this.tags.delete(userId);
    }
    this.searchIndexes.forget(userId);
    for (const listener of this.listeners) listener(userId);
  }

  /** Runs `listener` whenever an account's contacts change here or in another process (`null`: every account). */
  onChanged(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How contact changes reach the other processes (the change bus; set once when the app is built). */
  announceWith(announce: (userId: string) => void): void {
    this.announce = announce;
  }
}

export const contactsSlot = stateSlot('contacts', () => new ContactsState());

/** The app's contacts state. */
export function contactsState(state: AppState): ContactsState {
  return state.of(contactsSlot);
}

/** The account's contacts changed (see `ContactsState.changed`). */
export function contactsChanged(state: AppState, userId: string): void {
  contactsState(state).changed(userId);
}
