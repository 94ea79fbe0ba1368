import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../../db/schema';
import { createTestApp, createUser, type TestContext } from '../../testing/test-app';
import { contactStats } from './contacts.service';
import { contactsChanged, contactsState } from './contacts-state';

// Two apps in one process, on one database, with no bus between them (each its own LocalBus).
let one: TestContext;
let two: TestContext;

beforeAll(async () => {
  one = await createTestApp({}, undefined, { dispatcher: { autoStart: false } });
  two = await createTestApp({}, undefined, { dispatcher: { autoStart: false }, database: one.database });
});

afterAll(async () => {
  await two.app.close();
  await one.close();
});

describe('two apps in one process share no cache and no listener', () => {
  it('each keeps its own stat cards: a change in one drops only its own', async () => {
    const user = await createUser(one);
    const { db } = one.database;
    const [stateOne, stateTwo] = [one.app.deps.state, two.app.deps.state];
    expect(stateOne).not.toBe(stateTwo);
    expect(contactsState(stateOne)).not.toBe(contactsState(stateTwo));

    await db.insert(contacts).values({ userId: user.id, name: 'Ana', phone: '+5511987650001' });
    expect((await contactStats(db, stateOne, user.id)).total).toBe(1);
    expect((await contactStats(db, stateTwo, user.id)).total).toBe(1);

    await db.insert(contacts).values({ userId: user.id, name: 'Bia', phone: '+5511987650002' });
    contactsChanged(stateOne, user.id);
    expect((await contactStats(db, stateOne, user.id)).total).toBe(2);
    // The second app was not told (no bus here): it still answers from its own entry.
    expect((await contactStats(db, stateTwo, user.id)).total).toBe(1);
    contactsChanged(stateTwo, user.id);
    expect((await contactStats(db, stateTwo, user.id)).total).toBe(2);
  });

  it('a listener registered with one app hears that app only', () => {
    const heardOne: Array<string | null> = [];
    const stop = contactsState(one.app.deps.state).onChanged((userId) => heardOne.push(userId));
    contactsChanged(two.app.deps.state, 'conta-da-outra-app');
    expect(heardOne).toEqual([]);
    contactsChanged(one.app.deps.state, 'conta-desta-app');
    expect(heardOne).toEqual(['conta-desta-app']);
    stop();
  });
});
