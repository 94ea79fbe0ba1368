import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { accountSql } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

/** A contact's place in line: taken when its message arrives, in arrival order. */
export interface TurnTicket {
  userId: string;
  contact: string;
  number: number;
  /** The turn was free: the ticket holds it already. */
  held: boolean;
}

/** A turn being held; `release` never throws (an unreleased turn lapses with its lease). */
export interface HeldTurn {
  release(): Promise<void>;
}

export interface TurnTimings {
  /** A held turn lapses this long after it was taken or last renewed (a crashed holder). */
  leaseMs: number;
  /** The next ticket's owner has this long to claim a turn handed to it. */
  grantMs: number;
  /** A long handle renews its lease this often. */
  renewMs: number;
  /** Waiting for a turn, the row is looked at again after a random pause in this range. */
  pollMs: [number, number];
}

const DEFAULT_TIMINGS: TurnTimings = { leaseMs: 30_000, grantMs: 10_000, renewMs: 10_000, pollMs: [10, 25] };

const after = (ms: number) => sql`(now() + ${ms}::int * interval '1 millisecond')`;

/**
 * A turn per account and contact shared by every process on the database: a ticket lock on the
 * contact's `chatbot_turns` row. Each message takes a ticket when it arrives (one statement; the
 * turn is held at once when free), waits until `serving` reaches it, and hands the turn to the next
 * ticket when its replies are done (one statement). Waiting polls the row: no database connection
 * is held while a reply goes to WhatsApp. A turn not released (a crashed process) lapses with its
 * lease, and a ticket nobody claims (its process is gone) with the grant, so the contact's later
 * messages go on.
 */
export class ContactTurns {
  private readonly timings: TurnTimings;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    timings: Partial<TurnTimings> = {},
  ) {
    this.timings = { ...DEFAULT_TIMINGS, ...timings };
  }

  async take(userId: string, contact: string): Promise<TurnTicket> {
    const row = rowsOf<{ next_ticket: number | string; serving: number | string }>(
      await this.db.execute(sql`
        insert into chatbot_turns (user_id, contact, next_ticket, serving, lease_until)
        values (${userId}, ${contact}, 1, 1, ${after(this.timings.leaseMs)})
        on conflict (user_id, contact) do update set
          next_ticket = chatbot_turns.next_ticket + 1,
          lease_until = case when chatbot_turns.serving > chatbot_turns.next_ticket
                             then excluded.lease_until else chatbot_turns.lease_until end
        returning next_ticket, serving`),
    )[0];
    const number = Number(row?.next_ticket);
    return { userId, contact, number, held: number === Number(row?.serving) };
  }

  /** Waits for the ticket's turn and holds it (renewing its lease) until released. */
  async wait(ticket: TurnTicket): Promise<HeldTurn> {
    const { userId, contact, number } = ticket;
    if (!ticket.held) {
      for (;;) {
        // Claims the turn when it came (a fresh lease), or moves a lapsed one on; one round trip.
        const row = rowsOf<{ claimed: number | string | null; serving: number | string | null }>(
          await this.db.execute(sql`
            with claim as (
              update chatbot_turns set
                serving = case when serving = ${number} then serving else serving + 1 end,
                lease_until = case when serving = ${number} or serving + 1 = ${number}
                                   then ${after(this.timings.leaseMs)} else ${after(this.timings.grantMs)} end
              where ${accountSql(userId)} and contact = ${contact}
                and (serving = ${number} or (serving < ${number} and coalesce(lease_until < now(), true)))
              returning serving
            )
            select (select serving from claim) as claimed,
                   (select serving from chatbot_turns where ${accountSql(userId)} and contact = ${contact}) as serving`),
        )[0];
        if (row?.claimed !== null && row?.claimed !== undefined && Number(row.claimed) === number) break;
        if (row?.claimed === null && row.serving !== null && Number(row.serving) > number) {
          // Passed over (this process did not claim it within the grant): answered anyway, unordered.
          this.log.warn({ userId, ticket: number }, 'a chatbot turn lapsed before it was claimed');
          return { release: async () => undefined };
        }
        const [min, max] = this.timings.pollMs;
        await new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
      }
    }
    const renew = setInterval(() => {
      this.db
        .execute(sql`
          update chatbot_turns set lease_until = ${after(this.timings.leaseMs)}
          where ${accountSql(userId)} and contact = ${contact} and serving = ${number}`)
        .catch((err) => this.log.warn({ err }, 'a chatbot turn could not be renewed'));
    }, this.timings.renewMs);
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        try {
          await this.db.execute(sql`
            update chatbot_turns set serving = serving + 1, lease_until = ${after(this.timings.grantMs)}
            where ${accountSql(userId)} and contact = ${contact} and serving = ${number}`);
        } catch (err) {
          this.log.warn({ err }, 'a chatbot turn could not be released: it lapses with its lease');
        }
      },
    };
  }
}
