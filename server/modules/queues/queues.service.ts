import { asc, eq, sql } from 'drizzle-orm';
import { type RestoreCounts, zeroCounts } from '../../../contract/backup';
import { QUEUE_LIMIT, type Queue, type QueueInput, queuesMsg } from '../../../contract/queues';
import { lockAccount } from '../../db/account-lock';
import { accountSql, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { rowsOf } from '../../db/rows';
import { queues } from '../../db/schema';
import { AppError } from '../../errors';

type Row = typeof queues.$inferSelect;

const toQueue = (r: Row, open = 0): Queue => ({
  id: r.id,
  name: r.name,
  connectionIds: r.connectionIds,
  memberIds: r.memberIds,
  hours: (r.hours as Queue['hours']) ?? null,
  outOfHoursMessage: r.outOfHoursMessage,
  assignment: r.assignment,
  openConversations: open,
  createdAt: r.createdAt.toISOString(),
});

const nameTaken = () => new AppError('CONFLICT', queuesMsg.nameTaken, { name: queuesMsg.nameTaken });

/** The account's queues by name, each with its conversations not yet resolved. */
export async function listQueues(db: Db, userId: string): Promise<Queue[]> {
  const rows = await db.select().from(queues).where(ofAccount(queues, userId)).orderBy(asc(queues.name));
  if (rows.length === 0) return [];
  const open = new Map(
    rowsOf<{ queue_id: string; n: number }>(
      await db.execute(sql`
        select queue_id, count(*)::int as n from conversations
        where ${accountSql(userId)} and queue_id is not null and status <> 'resolved'
        group by queue_id`),
    ).map((r) => [r.queue_id, Number(r.n)]),
  );
  return rows.map((r) => toQueue(r, open.get(r.id) ?? 0));
}

/**
 * Refuses a number or a person that is not the account's (an active login: its owner or a member),
 * naming the field, as if unknown: another account's ids are never told apart from made-up ones.
 */
async function checkReferences(db: Db, userId: string, input: QueueInput): Promise<void> {
  const ids = (list: string[]) =>
    list.length
      ? sql`array[${sql.join(
          list.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}]`
      : sql`'{}'::uuid[]`;
  const [found] = rowsOf<{ numbers: number; people: number }>(
    await db.execute(sql`
      select
        (select count(*)::int from connections where ${accountSql(userId)} and id = any(${ids(input.connectionIds)})) as numbers,
        (select count(*)::int from users where (id = ${userId} or account_id = ${userId}) and is_active
           and id = any(${ids(input.memberIds)})) as people`),
  );
  if (Number(found.numbers) !== new Set(input.connectionIds).size)
    throw new AppError('NOT_FOUND', queuesMsg.connectionNotFound, { connectionIds: queuesMsg.connectionNotFound });
  if (Number(found.people) !== new Set(input.memberIds).size)
    throw new AppError('NOT_FOUND', queuesMsg.memberNotFound, { memberIds: queuesMsg.memberNotFound });
}

const values = (input: QueueInput) => ({
  name: input.name,
  connectionIds: [...new Set(input.connectionIds)],
  memberIds: [...new Set(input.memberIds)],
  hours: input.hours,
  outOfHoursMessage: input.outOfHoursMessage,
  assignment: input.assignment,
});

/** A new queue, counted and inserted under the account's lock so two at once count each other. */
export async function createQueue(db: Db, userId: string, input: QueueInput): Promise<Queue> {
  await checkReferences(db, userId, input);
  try {
    return await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await lockAccount(t, userId, 'queues');
      const [count] = await t.select({ n: sql<number>`count(*)::int` }).from(queues).where(ofAccount(queues, userId));
      if (Number(count.n) >= QUEUE_LIMIT) throw new AppError('CONFLICT', queuesMsg.limitReached);
      const [row] = await t
        .insert(queues)
        .values({ userId, ...values(input) })
        .returning();
      return toQueue(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'queues_name_unique')) throw nameTaken();
    throw err;
  }
}

export async function updateQueue(db: Db, userId: string, id: string, input: QueueInput): Promise<Queue> {
  await checkReferences(db, userId, input);
  try {
    const [row] = await db
      .update(queues)
      .set(values(input))
      .where(ofAccount(queues, userId, eq(queues.id, id)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', queuesMsg.notFound);
    return (await listQueues(db, userId)).find((q) => q.id === row.id) ?? toQueue(row);
  } catch (err) {
    if (isUniqueViolation(err, 'queues_name_unique')) throw nameTaken();
    throw err;
  }
}

/** Deletes a queue; its conversations stay, in no queue (the foreign key sets them null). */
export async function deleteQueue(db: Db, userId: string, id: string): Promise<void> {
  const gone = await db
    .delete(queues)
    .where(ofAccount(queues, userId, eq(queues.id, id)))
    .returning({ id: queues.id });
  if (!gone.length) throw new AppError('NOT_FOUND', queuesMsg.notFound);
}

// Restore (modules/backup)

/**
 * The backup's queues by name (as people tell them apart, case aside): a name the account has
 * keeps its own queue; the others are added, without numbers or people (those were the other
 * account's), up to QUEUE_LIMIT, under the account's queues lock. Answers the account's queue
 * id of every name, to point the restored bot rules at.
 */
export async function restoreQueues(
  t: Db,
  userId: string,
  list: ReadonlyArray<Pick<QueueInput, 'name' | 'hours' | 'outOfHoursMessage' | 'assignment'> & { createdAt?: string }>,
): Promise<{ counts: RestoreCounts; idOf: Map<string, string> }> {
  const counts = zeroCounts();
  await lockAccount(t, userId, 'queues');
  const existing = await t.select({ id: queues.id, name: queues.name }).from(queues).where(ofAccount(queues, userId));
  const idOf = new Map(existing.map((q) => [q.name.toLowerCase(), q.id]));
  let room = QUEUE_LIMIT - existing.length;
  for (const q of list) {
    const key = q.name.toLowerCase();
    if (idOf.has(key)) {
      counts.unchanged++;
      continue;
    }
    if (room <= 0) {
      counts.skipped++;
      continue;
    }
    const [row] = await t
      .insert(queues)
      .values({
        userId,
        name: q.name,
        hours: q.hours,
        outOfHoursMessage: q.outOfHoursMessage,
        assignment: q.assignment,
        ...(q.createdAt ? { createdAt: new Date(q.createdAt) } : {}),
      })
      .returning({ id: queues.id });
    idOf.set(key, row.id);
    room--;
    counts.added++;
  }
  return { counts, idOf };
}
