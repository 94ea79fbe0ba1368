import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { beforeEach, describe, expect, it } from 'vitest';
import { teamMsg } from '../../../contract/team';
import { LOGIN_CHALLENGE_ATTEMPTS, RECOVERY_CODE_COUNT, twoFactorMsg } from '../../../contract/two-factor';
import { loginChallenges, twoFactorSecrets, users } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { newMember } from '../../testing/team';
import {
  type ApiMethod,
  apiCall,
  createUser,
  newCustomer,
  TEST_PASSWORD,
  type TestContext,
} from '../../testing/test-app';
import { ensureAdmin } from './auth.service';

/**
 * Two-factor sign-in (RFC 6238): set up with a secret and a first code, recovery codes shown once
 * and kept hashed; the right password then opens only a challenge, completed by a code (±1 step,
 * never twice) or a recovery code (once); wrong codes end the challenge and are limited per login;
 * an owner can require it of the team, and a login without it reaches nothing but its setup.
 */
const ctx = appPerFile() as TestContext;

let ip = 0;
let client = '';
beforeEach(() => {
  client = `10.7.0.${++ip}`;
});

const call = (cookie: string | undefined, method: ApiMethod, url: string, payload?: unknown) =>
  apiCall(ctx, method, url, { cookie, payload, remoteAddress: client });

const cookieOf = (res: LightMyRequestResponse, name: string) => {
  const found = res.cookies.find((c) => c.name === name && c.value);
  return found ? `${name}=${found.value}` : undefined;
};

const codeAt = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });

/**
 * Each test reads codes of the steps around now: it starts at least 4 s before the step ends, so
 * "this step" is the same one from its first code to its last.
 */
async function awayFromStepEdge() {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 4000) await new Promise((r) => setTimeout(r, left + 50));
}

/** Turns two-factor sign-in on for a signed-in login: its secret and recovery codes. */
async function turnOn(cookie: string) {
  await awayFromStepEdge();
  const setup = await call(cookie, 'POST', '/api/auth/2fa/setup');
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, otpauthUrl } = setup.json();
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Disparo:.+\?.*secret=/);
  expect(otpauthUrl).toContain(`secret=${secret}`);
  // The first code is of the step before: the next sign-in's code (this step's) is still unused.
  const enabled = await call(cookie, 'POST', '/api/auth/2fa/enable', { code: codeAt(secret, Date.now() - 30_000) });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { secret, recoveryCodes: enabled.json().recoveryCodes as string[] };
}

/** The password step: the challenge cookie it sets. */
async function password(username: string) {
  const res = await call(undefined, 'POST', '/api/auth/login', { username, password: TEST_PASSWORD });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ success: true, message: twoFactorMsg.loginHint, twoFactorRequired: true });
  expect(cookieOf(res, 'disparo_session')).toBeUndefined();
  const challenge = cookieOf(res, 'disparo_2fa');
  expect(challenge).toBeDefined();
  return challenge as string;
}

describe('two-factor sign-in', () => {
  it('is set up with a code, then a sign-in needs the password and a code, and gives no session before', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const { secret, recoveryCodes } = await turnOn(cookie);
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    // The secret is sealed, the recovery codes hashed: none is in the database as shown.
    const [stored] = await ctx.database.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id));
    expect(JSON.stringify(stored)).not.toContain(secret);
    for (const code of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));
    expect((await call(cookie, 'GET', '/api/auth/me')).json()).toMatchObject({ twoFactorEnabled: true });

    const challenge = await password(user.username);
    // The challenge opens nothing by itself.
    expect((await call(challenge, 'GET', '/api/auth/me')).statusCode).toBe(401);
    const done = await call(challenge, 'POST', '/api/auth/login/2fa', { code: codeAt(secret) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().user).toMatchObject({ id: user.id, twoFactorEnabled: true });
    const session = cookieOf(done, 'disparo_session');
    expect((await call(session, 'GET', '/api/auth/me')).statusCode).toBe(200);
    // The challenge is spent.
    const again = await call(challenge, 'POST', '/api/auth/login/2fa', { code: codeAt(secret) });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(twoFactorMsg.challengeExpired);
  });

  it('takes a code one step late, never a code twice, nor one two steps away', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const { secret } = await turnOn(cookie);
    const challenge = await password(user.username);
    const twoAway = await call(challenge, 'POST', '/api/auth/login/2fa', { code: codeAt(secret, Date.now() - 75_000) });
    expect(twoAway.statusCode).toBe(400);
    expect(twoAway.json().message).toBe(twoFactorMsg.invalidCode);
    // The code of the step before was spent by the setup: refused even inside the window.
    const used = await call(challenge, 'POST', '/api/auth/login/2fa', { code: codeAt(secret, Date.now() - 30_000) });
    expect(used.statusCode).toBe(400);
    const late = await call(challenge, 'POST', '/api/auth/login/2fa', { code: codeAt(secret, Date.now() + 30_000) });
    expect(late.statusCode, late.body).toBe(200);
    // Signed in with the next step's code: this step's code is now behind it.
    const next = await password(user.username);
    expect((await call(next, 'POST', '/api/auth/login/2fa', { code: codeAt(secret) })).statusCode).toBe(400);
  });

  it('two sign-ins with one code at once: one passes', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const { secret } = await turnOn(cookie);
    const [a, b] = [await password(user.username), await password(user.username)];
    const code = codeAt(secret);
    const answers = await Promise.all([a, b].map((c) => call(c, 'POST', '/api/auth/login/2fa', { code })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('a recovery code signs in once, spelled with or without its dash', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const { recoveryCodes } = await turnOn(cookie);
    const [first] = recoveryCodes;
    const ok = await call(await password(user.username), 'POST', '/api/auth/login/2fa', {
      code: first.replace('-', ' ').toLowerCase(),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const twice = await call(await password(user.username), 'POST', '/api/auth/login/2fa', { code: first });
    expect(twice.statusCode).toBe(400);
    const [stored] = await ctx.database.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id));
    expect(stored.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT - 1);
  });

  it('wrong codes end the challenge at the fifth, and ten in a row refuse every code of the login for a while', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const { secret } = await turnOn(cookie);
    const challenge = await password(user.username);
    for (let i = 1; i < LOGIN_CHALLENGE_ATTEMPTS; i++) {
      expect((await call(challenge, 'POST', '/api/auth/login/2fa', { code: '000000' })).statusCode).toBe(400);
    }
    const last = await call(challenge, 'POST', '/api/auth/login/2fa', { code: '000000' });
    expect(last.statusCode).toBe(401);
    expect(await ctx.database.db.select().from(loginChallenges).where(eq(loginChallenges.userId, user.id))).toEqual([]);
    // The right code on the dead challenge: nothing.
    expect((await call(challenge, 'POST', '/api/auth/login/2fa', { code: codeAt(secret) })).statusCode).toBe(401);

    const second = await password(user.username);
    for (let i = 0; i < LOGIN_CHALLENGE_ATTEMPTS; i++)
      await call(second, 'POST', '/api/auth/login/2fa', { code: '111111' });
    const third = await password(user.username);
    const refused = await call(third, 'POST', '/api/auth/login/2fa', { code: codeAt(secret) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(twoFactorMsg.tooManyAttempts);
  });

  it('a challenge expires', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const { secret } = await turnOn(cookie);
    const challenge = await password(user.username);
    await ctx.database.db
      .update(loginChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginChallenges.userId, user.id));
    expect((await call(challenge, 'POST', '/api/auth/login/2fa', { code: codeAt(secret) })).statusCode).toBe(401);
  });

  it('is turned off with the password and a code, and a login without it signs in with the password again', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const { secret } = await turnOn(cookie);
    const wrongPassword = await call(cookie, 'POST', '/api/auth/2fa/disable', {
      password: 'nao-e-esta',
      code: codeAt(secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().fieldErrors).toEqual({ password: twoFactorMsg.wrongPassword });
    const noCode = await call(cookie, 'POST', '/api/auth/2fa/disable', { password: TEST_PASSWORD, code: '123' });
    expect(noCode.statusCode).toBe(400);
    const off = await call(cookie, 'POST', '/api/auth/2fa/disable', { password: TEST_PASSWORD, code: codeAt(secret) });
    expect(off.statusCode, off.body).toBe(200);
    const login = await call(undefined, 'POST', '/api/auth/login', {
      username: user.username,
      password: TEST_PASSWORD,
    });
    expect(login.json().user).toMatchObject({ id: user.id, twoFactorEnabled: false });
    expect(cookieOf(login, 'disparo_session')).toBeDefined();
  });

  it('turning it on ends the login’s other sessions, and a second setup is refused while it is on', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const other = cookieOf(
      await call(undefined, 'POST', '/api/auth/login', { username: user.username, password: TEST_PASSWORD }),
      'disparo_session',
    );
    await turnOn(cookie);
    expect((await call(other, 'GET', '/api/auth/me')).statusCode).toBe(401);
    expect((await call(cookie, 'GET', '/api/auth/me')).statusCode).toBe(200);
    const again = await call(cookie, 'POST', '/api/auth/2fa/setup');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(twoFactorMsg.alreadyEnabled);
  });

  it('a demo account cannot turn it on (read only)', async () => {
    const { cookie } = await newCustomer(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await call(cookie, 'POST', '/api/auth/2fa/setup')).statusCode).toBe(403);
  });
});

describe('requiring two-factor sign-in of the team', () => {
  it('is the owner’s, after turning it on for itself; a member without it reaches only its setup, then works', async () => {
    const { user: owner, cookie } = await newCustomer(ctx, { planType: 'professional' });
    const manager = await newMember(ctx, owner, 'manager');
    const agent = await newMember(ctx, owner, 'agent');

    const managerTries = await call(manager.cookie, 'PUT', '/api/team/settings', { requireTwoFactor: true });
    expect(managerTries.statusCode).toBe(403);
    expect(managerTries.json().message).toBe(teamMsg.managerForbidden);
    const first = await call(cookie, 'PUT', '/api/team/settings', { requireTwoFactor: true });
    expect(first.statusCode).toBe(409);
    expect(first.json().message).toBe(twoFactorMsg.ownerNeedsItFirst);

    const { secret: ownerSecret } = await turnOn(cookie);
    const on = await call(cookie, 'PUT', '/api/team/settings', { requireTwoFactor: true });
    expect(on.statusCode, on.body).toBe(200);
    expect((await call(cookie, 'GET', '/api/team')).json()).toMatchObject({ requireTwoFactor: true });

    // The agent's session, already open, reads the rule at once.
    const blocked = await call(agent.cookie, 'GET', '/api/conversations');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', message: twoFactorMsg.setupRequired });
    const me = await call(agent.cookie, 'GET', '/api/auth/me');
    expect(me.json()).toMatchObject({ twoFactorSetupRequired: true, twoFactorEnabled: false });
    // The 2-second poll too.
    expect((await call(agent.cookie, 'GET', '/api/whatsapp-session')).statusCode).toBe(403);

    await turnOn(agent.cookie);
    expect((await call(agent.cookie, 'GET', '/api/conversations')).statusCode).toBe(200);
    const team = (await call(cookie, 'GET', '/api/team')).json();
    expect(team.members.find((m: { id: string }) => m.id === agent.member.id).twoFactor).toBe(true);
    expect(team.members.find((m: { id: string }) => m.id === manager.member.id).twoFactor).toBe(false);

    // Nobody turns it off while the account requires it.
    const off = await call(cookie, 'POST', '/api/auth/2fa/disable', {
      password: TEST_PASSWORD,
      code: codeAt(ownerSecret),
    });
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toBe(twoFactorMsg.requiredByAccount);

    expect((await call(cookie, 'PUT', '/api/team/settings', { requireTwoFactor: false })).statusCode).toBe(200);
    expect((await call(manager.cookie, 'GET', '/api/conversations')).statusCode).toBe(200);
  });

  it('ADMIN_REQUIRE_TWO_FACTOR holds every administrator to it', async () => {
    const admin = await createUser(ctx, { accountType: 'admin', planType: 'admin', isActive: true });
    const log = { info: () => {}, warn: () => {} };
    await ensureAdmin(ctx.database.db, { username: admin.username, requireTwoFactor: true }, log);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row.requireTwoFactor).toBe(true);
    const login = await call(undefined, 'POST', '/api/auth/login', {
      username: admin.username,
      password: TEST_PASSWORD,
    });
    const session = cookieOf(login, 'disparo_session');
    expect((await call(session, 'GET', '/api/admin/users')).json()).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' });
    await ensureAdmin(ctx.database.db, { username: admin.username, requireTwoFactor: false }, log);
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(after.requireTwoFactor).toBe(false);
  });
});

describe('resetting a member’s two-factor sign-in (a lost phone)', () => {
  it('is for the owner and managers, on others’ rows: the old codes stop working and the member’s sessions end', async () => {
    const { user: owner, cookie } = await newCustomer(ctx, { planType: 'professional' });
    const manager = await newMember(ctx, owner, 'manager');
    const agent = await newMember(ctx, owner, 'agent');
    const { recoveryCodes } = await turnOn(agent.cookie);
    const reset = (who: string, id: string) => call(who, 'POST', `/api/team/${id}/reset-two-factor`);

    // An agent manages no one; nobody resets the owner's, nor their own.
    expect((await reset(agent.cookie, manager.member.id)).statusCode).toBe(403);
    const ownerRow = await reset(manager.cookie, owner.id);
    expect(ownerRow.statusCode).toBe(403);
    expect(ownerRow.json().message).toBe(teamMsg.ownerProtected);
    expect((await reset(manager.cookie, manager.member.id)).json().message).toBe(teamMsg.notYourself);
    // A login without a second factor has nothing to reset.
    const none = await reset(cookie, manager.member.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(teamMsg.twoFactorNotOn);

    const done = await reset(manager.cookie, agent.member.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      message: teamMsg.twoFactorReset(agent.member.name),
      member: { id: agent.member.id, twoFactor: false },
    });
    // The agent's open session is over; the secret and its recovery codes are gone.
    expect((await call(agent.cookie, 'GET', '/api/auth/me')).statusCode).toBe(401);
    const rows = await ctx.database.db
      .select()
      .from(twoFactorSecrets)
      .where(eq(twoFactorSecrets.userId, agent.member.id));
    expect(rows).toEqual([]);
    // The password alone signs in now (the account does not require a second factor) …
    const login = await call(undefined, 'POST', '/api/auth/login', {
      username: agent.member.username,
      password: TEST_PASSWORD,
    });
    expect(login.json()).not.toHaveProperty('twoFactorRequired');
    const session = cookieOf(login, 'disparo_session');
    expect((await call(session, 'GET', '/api/auth/me')).json()).toMatchObject({ twoFactorEnabled: false });
    // … and the old codes disable nothing: there is no second factor to spend them on.
    const off = await call(session, 'POST', '/api/auth/2fa/disable', {
      password: TEST_PASSWORD,
      code: recoveryCodes[0],
    });
    expect(off.json().message).toBe(twoFactorMsg.notEnabled);

    // The log names who reset whose.
    const log = (await call(cookie, 'GET', '/api/activity?limit=5')).json();
    const line = log.events.find((e: { kind: string; actorName: string }) => e.kind === 'team_changed');
    expect(line).toMatchObject({ actorName: manager.member.name });
    expect(JSON.stringify(line)).toContain(`${agent.member.name} — verificação em duas etapas redefinida`);
  });

  it('sends a member of an account that requires it straight back to its setup', async () => {
    const { user: owner, cookie } = await newCustomer(ctx, { planType: 'professional' });
    const agent = await newMember(ctx, owner, 'agent');
    await turnOn(cookie);
    await turnOn(agent.cookie);
    expect((await call(cookie, 'PUT', '/api/team/settings', { requireTwoFactor: true })).statusCode).toBe(200);
    expect((await call(cookie, 'POST', `/api/team/${agent.member.id}/reset-two-factor`)).statusCode).toBe(200);
    const login = await call(undefined, 'POST', '/api/auth/login', {
      username: agent.member.username,
      password: TEST_PASSWORD,
    });
    const session = cookieOf(login, 'disparo_session');
    const blocked = await call(session, 'GET', '/api/conversations');
    expect(blocked.json()).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' });
    await turnOn(session as string);
    expect((await call(session, 'GET', '/api/conversations')).statusCode).toBe(200);
  });

  it('reaches no member of another account', async () => {
    const a = await newCustomer(ctx, { planType: 'professional' });
    const b = await newCustomer(ctx, { planType: 'professional' });
    const agentOfB = await newMember(ctx, b.user, 'agent');
    await turnOn(agentOfB.cookie);
    const res = await call(a.cookie, 'POST', `/api/team/${agentOfB.member.id}/reset-two-factor`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(teamMsg.memberNotFound);
    expect((await call(agentOfB.cookie, 'GET', '/api/auth/me')).json()).toMatchObject({ twoFactorEnabled: true });
  });
});
