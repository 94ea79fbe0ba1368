import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../db/rows';
import { databasePerFile } from '../testing/app-per-file';
import { createUser } from '../testing/test-app';
import { type AccountChange, record } from './events';
import { onNotification } from './notify';

const database = databasePerFile();

const account = async (): Promise<string> => (await createUser({ database })).id;

const activityOf = async (userId: string) =>
  rowsOf<{ kind: string; detail: string; actor_id: string | null }>(
    await database.db.execute(
      sql`select kind, detail, actor_id from activity_events where user_id = ${userId} order by created_at, id`,
    ),
  );
const notificationsOf = async (userId: string) =>
  rowsOf<{ kind: string; title: string; body: string; link: string | null }>(
    await database.db.execute(sql`select kind, title, body, link from notifications where user_id = ${userId}`),
  );

const quiet = () => ({ error: vi.fn() });

describe('record', () => {
  it('writes the activity line of an event, named by the vocabulary, and no notification for one without', async () => {
    const userId = await account();
    const log = quiet();
    await record(
      database.db,
      { kind: 'contacts_exported', by: { userId, actorId: userId }, file: 'contatos.csv', count: 2, tag: 'vip' },
      { log },
    );
    expect(await activityOf(userId)).toEqual([
      { kind: 'contacts_exported', detail: 'contatos.csv: 2 contatos (tag vip)', actor_id: userId },
    ]);
    expect(await notificationsOf(userId)).toEqual([]);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('writes the notification of an event that has one, and tells the listeners of the database', async () => {
    const userId = await account();
    const heard = vi.fn();
    const stop = onNotification(database.db, heard);
    try {
      await record(
        database.db,
        {
          kind: 'campaign_halted',
          by: { userId, actorId: null },
          campaignId: 'c1',
          campaign: 'Promo',
          reason: 'Falhas',
        },
        { log: quiet() },
      );
    } finally {
      stop();
    }
    expect(await activityOf(userId)).toEqual([{ kind: 'campaign_paused', detail: 'Promo: Falhas', actor_id: null }]);
    const [n] = await notificationsOf(userId);
    expect(n).toMatchObject({ kind: 'campaign_paused', link: '/campaigns?report=c1' });
    expect(n.body).toContain('Promo');
    expect(heard).toHaveBeenCalledWith(userId, expect.objectContaining({ kind: 'campaign_paused' }));
  });

  it('writes inside the caller’s transaction: a rollback takes the event with it', async () => {
    const userId = await account();
    await database.db
      .transaction(async (tx) => {
        await record(
          tx,
          { kind: 'contacts_imported', by: { userId, actorId: userId }, file: 'a.csv', message: '3' },
          {
            log: quiet(),
            db: database.db,
          },
        );
        // Written, inside the transaction (PGlite runs one at a time: ask through it).
        const inside = await tx.execute(sql`select count(*)::int as n from activity_events where user_id = ${userId}`);
        expect(rowsOf<{ n: number }>(inside)[0].n).toBe(1);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await activityOf(userId)).toEqual([]);
    expect(await notificationsOf(userId)).toEqual([]);
  });

  it('never throws, and a failed write does not abort the caller’s transaction', async () => {
    const log = quiet();
    const userId = await account();
    await database.db.transaction(async (tx) => {
      // No such account: the activity insert fails its foreign key.
      const missing = '00000000-0000-4000-8000-000000000000';
      await record(tx, { kind: 'login', by: { userId: missing, actorId: missing } }, { log });
      await record(tx, { kind: 'login', by: { userId, actorId: userId } }, { log });
    });
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(await activityOf(userId)).toEqual([{ kind: 'login', detail: '', actor_id: userId }]);
  });

  it('announces the change an event makes to every process, and only that one', async () => {
    const userId = await account();
    const announced: Array<[AccountChange, string]> = [];
    const sinks = { log: quiet(), announce: (change: AccountChange, id: string) => announced.push([change, id]) };
    await record(database.db, { kind: 'settings_changed', by: { userId, actorId: userId }, section: 'profile' }, sinks);
    await record(
      database.db,
      { kind: 'settings_changed', by: { userId, actorId: userId }, section: 'whatsapp' },
      sinks,
    );
    await record(database.db, { kind: 'bot_changed', by: { userId, actorId: userId } }, sinks);
    expect(announced).toEqual([
      ['settings', userId],
      ['bot-config', userId],
    ]);
    // Three lines, one per event; written within the same millisecond they may share a timestamp,
    // so their order is not what this test is about.
    expect((await activityOf(userId)).map((a) => a.detail).sort()).toEqual(['', 'Perfil', 'WhatsApp']);
  });
});
