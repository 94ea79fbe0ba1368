import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { msg } from '../../../contract/messages';
import { TEAM_MEMBER_LIMITS } from '../../../contract/plans';
import { teamMsg } from '../../../contract/team';
import { rowsOf } from '../../db/rows';
import { teamInvitations, users } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { createMailTestApp, linkToken } from '../../testing/mail-app';
import type { ReceivedMail } from '../../testing/smtp-sink';
import { newMember } from '../../testing/team';
import { apiCall, loginAs, newCustomer, TEST_PASSWORD, waitFor } from '../../testing/test-app';

/**
 * A team in one account: an owner invites by e-mail (a real SMTP server on loopback), the invitee
 * accepts once and signs in with a login of their own that works for the account; roles limit what
 * each may call; deactivating a member ends their sessions at once; the plan's room is counted in
 * one step; nothing of one account's team reaches another account.
 */
const app = appPerFile(() => createMailTestApp());
const ctx = () => app;

let ip = 0;
let client = '';
beforeEach(() => {
  client = `10.9.0.${++ip}`;
});

const call = (
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) => apiCall(ctx(), method, url, { cookie, payload, remoteAddress: client });

const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function mailTo(address: string): Promise<ReceivedMail> {
  return waitFor(
    () => ctx().sink.received.find((m) => m.to.some((t: string) => t.includes(address))),
    (m) => m !== undefined,
    5000,
  ) as Promise<ReceivedMail>;
}

async function invite(cookie: string, role: 'manager' | 'agent' = 'agent') {
  const email = `convidado.${uniq()}@example.com`;
  const res = await call(cookie, 'POST', '/api/team/invitations', { name: 'Ana Atendente', email, role });
  return { res, email };
}

describe('an invitation', () => {
  it('is e-mailed, shows who is invited, creates the member’s login once, and the member signs in to the account', async () => {
    const owner = await newCustomer(ctx(), { company: `Loja ${uniq()}`, planType: 'professional' });
    const { res, email } = await invite(owner.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.invitation).toMatchObject({ email, role: 'agent', name: 'Ana Atendente' });

    const mail = await mailTo(email);
    expect(mail.subject).toContain(owner.user.company);
    const token = linkToken(mail, '/convite');
    expect(body.inviteUrl).toContain(`/convite?token=${token}`);
    // Only the token's hash is kept.
    const stored = JSON.stringify(await ctx().database.db.select().from(teamInvitations));
    expect(stored).not.toContain(token);

    const preview = await call(undefined, 'GET', `/api/auth/invitation?token=${token}`);
    expect(preview.json()).toEqual({ name: 'Ana Atendente', email, role: 'agent', accountName: owner.user.company });

    const username = `ana${uniq()}`;
    const accepted = await call(undefined, 'POST', '/api/auth/accept-invitation', {
      token,
      username,
      password: 'senha-da-ana-1',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const again = await call(undefined, 'POST', '/api/auth/accept-invitation', {
      token,
      username: `${username}2`,
      password: 'senha-da-ana-1',
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(teamMsg.invitationInvalid);
    expect((await call(undefined, 'GET', `/api/auth/invitation?token=${token}`)).statusCode).toBe(404);

    const cookie = await loginAs(ctx(), { username }, 'senha-da-ana-1');
    const me = (await call(cookie, 'GET', '/api/auth/me')).json();
    expect(me).toMatchObject({
      username,
      email,
      teamRole: 'agent',
      accountType: owner.user.accountType,
      planType: 'professional',
      accountName: owner.user.company,
    });
    expect(me.id).not.toBe(owner.user.id);
    expect((await call(owner.cookie, 'GET', '/api/auth/me')).json().teamRole).toBe('owner');

    const team = (await call(owner.cookie, 'GET', '/api/team')).json();
    expect(team.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'agent']);
    expect(team.members[1]).toMatchObject({ username, email, isActive: true, twoFactor: false, queueIds: [] });
    expect(team.invitations).toEqual([]);
    expect(team.limit).toBe(TEAM_MEMBER_LIMITS.professional);

    // The activity log names who did what: the owner's invitation, the member's login.
    const log = (await call(owner.cookie, 'GET', '/api/activity?limit=10')).json();
    const lines = log.events.map((e: { kind: string; actorName: string }) => `${e.kind}:${e.actorName}`);
    expect(lines).toContain(`login:${me.name}`);
    expect(lines).toContain(`team_changed:${owner.user.name}`);
  });

  it('refuses an address that already signs in, and an expired link', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const other = await newCustomer(ctx());
    const taken = await call(owner.cookie, 'POST', '/api/team/invitations', {
      name: 'Alguém',
      email: other.user.email.toUpperCase(),
      role: 'agent',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(teamMsg.emailTaken);

    const { res, email } = await invite(owner.cookie);
    const token = new URL(res.json().inviteUrl).searchParams.get('token') as string;
    await ctx()
      .database.db.update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`lower(${teamInvitations.email}) = ${email}`);
    const late = await call(undefined, 'POST', '/api/auth/accept-invitation', {
      token,
      username: `tarde${uniq()}`,
      password: 'senha-tarde-1',
    });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe(teamMsg.invitationInvalid);
  });

  it('to the same address again renews the link: the earlier one stops working', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const email = `duas.vezes.${uniq()}@example.com`;
    const first = await call(owner.cookie, 'POST', '/api/team/invitations', { name: 'Bia', email, role: 'agent' });
    const second = await call(owner.cookie, 'POST', '/api/team/invitations', { name: 'Bia', email, role: 'manager' });
    expect(second.json().invitation.id).toBe(first.json().invitation.id);
    const old = new URL(first.json().inviteUrl).searchParams.get('token');
    expect((await call(undefined, 'GET', `/api/auth/invitation?token=${old}`)).statusCode).toBe(404);
    const fresh = new URL(second.json().inviteUrl).searchParams.get('token');
    expect((await call(undefined, 'GET', `/api/auth/invitation?token=${fresh}`)).json().role).toBe('manager');
  });
});

describe('the plan’s room', () => {
  it('counts the owner, active members and open invitations in one step, even when invitations race', async () => {
    const owner = await newCustomer(ctx(), { planType: 'basic' });
    const limit = TEAM_MEMBER_LIMITS.basic;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(owner.cookie, 'POST', '/api/team/invitations', {
          name: `Pessoa ${i}`,
          email: `corrida.${i}.${uniq()}@example.com`,
          role: 'agent',
        }),
      ),
    );
    const ok = answers.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(limit - 1);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe(teamMsg.limitReached(limit));
    }
    // Cancelling an invitation gives its room back.
    const id = ok[0].json().invitation.id;
    expect((await call(owner.cookie, 'DELETE', `/api/team/invitations/${id}`)).statusCode).toBe(200);
    expect((await invite(owner.cookie)).res.statusCode).toBe(200);
  });

  it('refuses to reactivate a member when the room is taken', async () => {
    const owner = await newCustomer(ctx(), { planType: 'basic' });
    const { member } = await newMember(ctx(), owner.user, 'agent');
    await call(owner.cookie, 'PATCH', `/api/team/${member.id}`, { isActive: false });
    expect((await invite(owner.cookie)).res.statusCode).toBe(200);
    const back = await call(owner.cookie, 'PATCH', `/api/team/${member.id}`, { isActive: true });
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toBe(teamMsg.limitReached(TEAM_MEMBER_LIMITS.basic));
  });
});

describe('roles', () => {
  it('an agent works the inbox and the contacts, reads campaigns, and is refused numbers, settings, the team and sending', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const agent = await newMember(ctx(), owner.user, 'agent');
    const created = await call(owner.cookie, 'POST', '/api/contacts', {
      name: 'Cliente do Dono',
      phone: '11987654321',
    });
    expect(created.statusCode, created.body).toBe(200);
    const contacts = (await call(agent.cookie, 'GET', '/api/contacts')).json();
    expect(JSON.stringify(contacts)).toContain('Cliente do Dono');
    const edited = await call(agent.cookie, 'PUT', `/api/contacts/${created.json().contact.id}`, {
      name: 'Cliente Editado',
      phone: '11987654321',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    for (const url of ['/api/conversations', '/api/campaigns', '/api/metrics/today', '/api/whatsapp-session']) {
      expect((await call(agent.cookie, 'GET', url)).statusCode, url).toBe(200);
    }
    const refused: Array<[string, string, unknown?]> = [
      ['GET', '/api/connections'],
      ['GET', '/api/settings/whatsapp'],
      ['GET', '/api/bot-config'],
      ['GET', '/api/backup'],
      ['GET', '/api/team'],
      ['POST', '/api/campaigns', { name: 'x' }],
      ['POST', `/api/campaigns/${created.json().contact.id}/send`],
      ['DELETE', `/api/contacts/${created.json().contact.id}`],
    ];
    for (const [method, url, payload] of refused) {
      const res = await call(agent.cookie, method as 'GET', url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(teamMsg.agentForbidden);
    }
  });

  it('an agent reads the directory of the account’s active people, and nobody of another account', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const agent = await newMember(ctx(), owner.user, 'agent');
    const away = await newMember(ctx(), owner.user, 'manager');
    expect((await call(owner.cookie, 'PATCH', `/api/team/${away.member.id}`, { isActive: false })).statusCode).toBe(
      200,
    );
    const other = await newCustomer(ctx(), { planType: 'professional' });
    const stranger = await newMember(ctx(), other.user, 'agent');
    const res = await call(agent.cookie, 'GET', '/api/team/directory');
    expect(res.statusCode, res.body).toBe(200);
    const { members } = res.json() as { members: Array<{ id: string; name: string; role: string }> };
    expect(members.map((m) => [m.id, m.role])).toEqual([
      [owner.user.id, 'owner'],
      [agent.member.id, 'agent'],
    ]);
    expect(Object.keys(members[0]).sort()).toEqual(['id', 'name', 'role']);
    expect(res.body).not.toContain(stranger.member.id);
  });

  it('a manager runs the account but for restoring a backup and the owner’s row', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const manager = await newMember(ctx(), owner.user, 'manager');
    expect((await call(manager.cookie, 'GET', '/api/team')).statusCode).toBe(200);
    expect((await call(manager.cookie, 'GET', '/api/settings/whatsapp')).statusCode).toBe(200);
    const restore = await call(manager.cookie, 'POST', '/api/backup/restore');
    expect(restore.statusCode).toBe(403);
    expect(restore.json().message).toBe(teamMsg.managerForbidden);
    const onOwner = await call(manager.cookie, 'PATCH', `/api/team/${owner.user.id}`, { isActive: false });
    expect(onOwner.statusCode).toBe(403);
    expect(onOwner.json().message).toBe(teamMsg.ownerProtected);
    const onSelf = await call(manager.cookie, 'PATCH', `/api/team/${manager.member.id}`, { role: 'agent' });
    expect(onSelf.statusCode).toBe(403);
    // A manager may change another member.
    const agent = await newMember(ctx(), owner.user, 'agent');
    const promoted = await call(manager.cookie, 'PATCH', `/api/team/${agent.member.id}`, { role: 'manager' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json().member.role).toBe('manager');
    // The new role holds on the member's very next request.
    expect((await call(agent.cookie, 'GET', '/api/team')).statusCode).toBe(200);
  });

  it('a member’s profile and password are its own, never the owner’s', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const agent = await newMember(ctx(), owner.user, 'agent');
    const changed = await call(agent.cookie, 'POST', '/api/auth/change-password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'nova-senha-agente-1',
      confirmPassword: 'nova-senha-agente-1',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await loginAs(ctx(), owner.user)).toBeTruthy();
    expect(await loginAs(ctx(), agent.member, 'nova-senha-agente-1')).toBeTruthy();
    const profile = (await call(agent.cookie, 'GET', '/api/settings/profile')).json();
    expect(profile.email).toBe(agent.member.email);
  });
});

describe('deactivating a member', () => {
  it('ends the member’s live session at once and refuses its next sign-in', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const agent = await newMember(ctx(), owner.user, 'agent');
    // Warm the session cache: the poll path serves it from memory.
    expect((await call(agent.cookie, 'GET', '/api/whatsapp-session')).statusCode).toBe(200);
    const off = await call(owner.cookie, 'PATCH', `/api/team/${agent.member.id}`, { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().member.isActive).toBe(false);
    expect((await call(agent.cookie, 'GET', '/api/whatsapp-session')).statusCode).toBe(401);
    expect((await call(agent.cookie, 'GET', '/api/auth/me')).statusCode).toBe(401);
    const login = await call(undefined, 'POST', '/api/auth/login', {
      username: agent.member.username,
      password: TEST_PASSWORD,
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe(teamMsg.memberInactive);
  });

  it('of a deactivated account: its members are held like it', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const agent = await newMember(ctx(), owner.user, 'agent');
    await ctx().database.db.update(users).set({ isActive: false }).where(eq(users.id, owner.user.id));
    ctx().app.deps.sessions.forgetUser(owner.user.id);
    const res = await call(agent.cookie, 'GET', '/api/contacts');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(msg.roles.inactiveRestricted);
  });
});

describe('resetting a member’s two-factor sign-in', () => {
  it('tells the member by e-mail who reset it, and what to do next', async () => {
    const owner = await newCustomer(ctx(), { planType: 'professional' });
    const agent = await newMember(ctx(), owner.user, 'agent');
    await ctx().database.db.update(users).set({ twoFactorAt: new Date() }).where(eq(users.id, agent.member.id));
    const res = await call(owner.cookie, 'POST', `/api/team/${agent.member.id}/reset-two-factor`);
    expect(res.statusCode, res.body).toBe(200);
    const mail = await mailTo(agent.member.email);
    expect(mail.subject).toContain('verificação em duas etapas foi redefinida');
    expect(mail.text).toContain(`${owner.user.name} redefiniu`);
    expect(mail.text).toContain('/login');
  });
});

describe('another account', () => {
  it('cannot see, change or cancel anything of this account’s team, and its members see only their own account', async () => {
    const a = await newCustomer(ctx(), { planType: 'professional' });
    const b = await newCustomer(ctx(), { planType: 'professional' });
    const aAgent = await newMember(ctx(), a.user, 'agent');
    const bManager = await newMember(ctx(), b.user, 'manager');
    const { res } = await invite(a.cookie);
    const invitationId = res.json().invitation.id;
    for (const cookie of [b.cookie, bManager.cookie]) {
      const team = (await call(cookie, 'GET', '/api/team')).json();
      expect(JSON.stringify(team)).not.toContain(aAgent.member.id);
      expect(JSON.stringify(team)).not.toContain(invitationId);
      const patch = await call(cookie, 'PATCH', `/api/team/${aAgent.member.id}`, { isActive: false });
      expect(patch.statusCode).toBe(404);
      const cancel = await call(cookie, 'DELETE', `/api/team/invitations/${invitationId}`);
      expect(cancel.statusCode).toBe(404);
    }
    const [row] = rowsOf<{ is_active: boolean }>(
      await ctx().database.db.execute(sql`select is_active from users where id = ${aAgent.member.id}`),
    );
    expect(row.is_active).toBe(true);
    await call(a.cookie, 'POST', '/api/contacts', { name: 'Só de A', phone: '11911112222' });
    const seen = (await call(bManager.cookie, 'GET', '/api/contacts')).json();
    expect(JSON.stringify(seen)).not.toContain('Só de A');
    expect(JSON.stringify((await call(aAgent.cookie, 'GET', '/api/contacts')).json())).toContain('Só de A');
  });
});
