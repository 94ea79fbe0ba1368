import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { msg } from '../../../contract/messages';
import { contacts, planActivations, sessions, users } from '../../db/schema';
import { accountPerFile, appPerFile } from '../../testing/app-per-file';
import { type ApiMethod, apiCall, createUser, loginAs } from '../../testing/test-app';
import { seedDemoWorkspace } from '../auth';

const ctx = appPerFile();
const admin = accountPerFile(ctx, { accountType: 'admin', planType: 'admin' });

const call = (method: ApiMethod, url: string, payload?: object, cookie = admin.cookie) =>
  apiCall(ctx, method, url, { payload, cookie });

describe('admin users', () => {
  it('lists every account without password hashes', async () => {
    const u = await createUser(ctx, { accountType: 'pending', isActive: false });
    const res = await call('GET', '/api/admin/users');
    expect(res.statusCode).toBe(200);
    const found = res.json().find((x: { id: string }) => x.id === u.id);
    expect(found).toMatchObject({ username: u.username, accountType: 'pending', isActive: false });
    expect(res.body).not.toContain('argon2');
  });

  it('approves a pending account: it becomes active, can act at once, and the activation is recorded', async () => {
    const u = await createUser(ctx, { accountType: 'pending', isActive: false, planType: 'professional' });
    const cookie = await loginAs(ctx, u);
    expect((await call('GET', '/api/metrics', undefined, cookie)).statusCode).toBe(403);
    const res = await call('PATCH', `/api/admin/users/${u.id}`, { isActive: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ accountType: 'active', isActive: true, planType: 'professional' });
    expect((await call('GET', '/api/metrics', undefined, cookie)).statusCode).toBe(200);
    const acts = await ctx.database.db.select().from(planActivations).where(eq(planActivations.userId, u.id));
    expect(acts.map((a) => a.planType)).toEqual(['professional']);
  });

  it('deactivates a customer: its sessions end and a new login only reaches its own session', async () => {
    const u = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    const res = await call('PATCH', `/api/admin/users/${u.id}`, { isActive: false });
    expect(res.json().user.isActive).toBe(false);
    expect((await call('GET', '/api/auth/me', undefined, cookie)).statusCode).toBe(401);
    const again = await loginAs(ctx, u);
    expect((await call('GET', '/api/auth/me', undefined, again)).json().isActive).toBe(false);
    const blocked = await call('GET', '/api/campaigns', undefined, again);
    expect(blocked.json()).toMatchObject({ code: 'ACCOUNT_INACTIVE' });
  });

  it('changes plan and account type; regular counts as an active customer', async () => {
    const u = await createUser(ctx);
    const res = await call('PATCH', `/api/admin/users/${u.id}`, { planType: 'premium', accountType: 'regular' });
    expect(res.json().user).toMatchObject({ planType: 'premium', accountType: 'regular' });
    const cookie = await loginAs(ctx, u);
    expect((await call('GET', '/api/campaigns', undefined, cookie)).statusCode).toBe(200);
  });

  it('never changes, deactivates or deletes an admin account', async () => {
    const other = await createUser(ctx, { accountType: 'admin', planType: 'admin' });
    for (const body of [{ isActive: false }, { planType: 'basic' }, { accountType: 'active' }]) {
      const res = await call('PATCH', `/api/admin/users/${other.id}`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(msg.admin.adminProtected);
    }
    expect((await call('DELETE', `/api/admin/users/${other.id}`)).statusCode).toBe(403);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, other.id));
    expect(row).toMatchObject({ accountType: 'admin', isActive: true });
  });

  it('refuses to make an account admin and validates its input', async () => {
    const u = await createUser(ctx);
    const promote = await call('PATCH', `/api/admin/users/${u.id}`, { accountType: 'admin' });
    expect(promote.statusCode).toBe(400);
    expect(promote.json().message).toBe(msg.admin.accountTypeNotAllowed);
    expect((await call('PATCH', `/api/admin/users/${u.id}`, {})).statusCode).toBe(400);
    expect((await call('PATCH', '/api/admin/users/not-a-uuid', { isActive: true })).statusCode).toBe(400);
    const missing = await call('PATCH', '/api/admin/users/00000000-0000-4000-8000-000000000000', { isActive: true });
    expect(missing.statusCode).toBe(404);
  });

  it('deletes a customer and everything it owns', async () => {
    const u = await createUser(ctx);
    await seedDemoWorkspace(ctx.database.db, u.id);
    await loginAs(ctx, u);
    const res = await call('DELETE', `/api/admin/users/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(await ctx.database.db.select().from(users).where(eq(users.id, u.id))).toHaveLength(0);
    expect(await ctx.database.db.select().from(contacts).where(eq(contacts.userId, u.id))).toHaveLength(0);
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0);
  });

  it('cleans up only expired demo accounts, with their data, and answers the count', async () => {
    const expired = await createUser(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() - 60_000),
    });
    await seedDemoWorkspace(ctx.database.db, expired.id);
    const live = await createUser(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const res = await call('POST', '/api/admin/cleanup');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, deletedCount: 1 });
    expect(await ctx.database.db.select().from(users).where(eq(users.id, expired.id))).toHaveLength(0);
    expect(await ctx.database.db.select().from(contacts).where(eq(contacts.userId, expired.id))).toHaveLength(0);
    expect(await ctx.database.db.select().from(users).where(eq(users.id, live.id))).toHaveLength(1);
    expect((await call('POST', '/api/admin/cleanup')).json().deletedCount).toBe(0);
  });
});
