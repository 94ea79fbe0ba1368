import { describe, expect, it } from 'vitest';
import { AppState } from '../../lib/app-state';
import { contactsChanged } from '../contacts';
import { campaignsSlot, namelessKey } from './campaigns-state';

describe("campaigns' state", () => {
  const counted = { count: 1, phones: ['+5511987650001'] };

  it("drops an account's nameless counts when that account's contacts change in its own app only", () => {
    const [one, two] = [new AppState(), new AppState()];
    for (const state of [one, two]) {
      state.of(campaignsSlot).nameless.set(namelessKey('conta-a', 3, 'all', []), counted);
      state.of(campaignsSlot).nameless.set(namelessKey('conta-b', 3, 'all', []), counted);
    }
    contactsChanged(one, 'conta-a');
    expect(one.of(campaignsSlot).nameless.keys()).toEqual([namelessKey('conta-b', 3, 'all', [])]);
    expect(two.of(campaignsSlot).nameless.size).toBe(2);
  });

  it('a change of every account (the bus reset) drops them all', () => {
    const state = new AppState();
    state.of(campaignsSlot).nameless.set(namelessKey('conta-a', 3, 'all', []), counted);
    state.of(campaignsSlot).contactsChanged(null);
    expect(state.of(campaignsSlot).nameless.size).toBe(0);
  });

  it("an account whose id starts like another's keeps its counts", () => {
    const state = new AppState();
    state.of(campaignsSlot).nameless.set(namelessKey('conta-ab', 3, 'all', []), counted);
    contactsChanged(state, 'conta-a');
    expect(state.of(campaignsSlot).nameless.size).toBe(1);
  });
});
