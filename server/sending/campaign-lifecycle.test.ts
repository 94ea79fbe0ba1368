import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_RUNNING,
  CAMPAIGN_TRANSITIONS,
  type CampaignAction,
  campaignMsg,
  campaignStatuses,
} from '../../contract/campaigns';
import { AppError } from '../errors';
import { assertTransition, canTransition, ENGINE_TRANSITIONS, statusIn, USER_TRANSITIONS } from './campaign-lifecycle';

const actions = Object.keys(CAMPAIGN_TRANSITIONS) as CampaignAction[];

describe('campaign lifecycle: the transition check', () => {
  it("leaves from exactly the statuses the contract's table lists, for every user action", () => {
    expect(Object.keys(USER_TRANSITIONS).sort()).toEqual([...actions].sort());
    for (const action of actions) {
      expect(USER_TRANSITIONS[action].from).toEqual(CAMPAIGN_TRANSITIONS[action]);
      for (const status of campaignStatuses) {
        const allowed = (CAMPAIGN_TRANSITIONS[action] as readonly string[]).includes(status);
        expect(canTransition(action, status), `${action} from ${status}`).toBe(allowed);
      }
    }
  });

  it('refuses an illegal transition with a 409 naming the action and the status', () => {
    let caught: unknown;
    try {
      assertTransition('resume', 'completed');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('CONFLICT');
    expect((caught as AppError).message).toBe(campaignMsg.transition('resume', 'completed'));
    expect(() => assertTransition('send', 'sending')).toThrow(campaignMsg.transition('send', 'sending'));
    expect(() => assertTransition('edit', 'paused')).toThrow(AppError);
    expect(() => assertTransition('pause', 'not-a-status')).toThrow(AppError);
    expect(() => assertTransition('pause', 'sending')).not.toThrow();
  });

  it('leads every move to known statuses, and the engine moves only running campaigns (or a due scheduled one)', () => {
    const known = new Set<string>(campaignStatuses);
    for (const t of [...Object.values(USER_TRANSITIONS), ...Object.values(ENGINE_TRANSITIONS)]) {
      for (const s of [...t.from, ...t.to]) expect(known.has(s), s).toBe(true);
    }
    for (const [name, t] of Object.entries(ENGINE_TRANSITIONS)) {
      if (name === 'startScheduled') expect(t.from).toEqual(['scheduled']);
      else for (const s of t.from) expect(CAMPAIGN_RUNNING as readonly string[]).toContain(s);
    }
  });

  it('writes a status group as the SQL list a hand-written query would', () => {
    const query = new PgDialect().sqlToQuery(statusIn(CAMPAIGN_RUNNING));
    expect(query.sql).toBe("in ('sending', 'in_progress')");
    expect(query.params).toEqual([]);
    expect(() => statusIn(["x'); drop table campaigns; --"])).toThrow();
  });
});
