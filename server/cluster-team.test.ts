import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type NodeServer } from '../scripts/launch-server.mjs';
import { signIn } from './testing/http-session';
import { apiFetch, type HttpSession } from './testing/raw-http';
import { sendingSettings } from './testing/sending-settings';
import { startSourceServer, untilHealthy } from './testing/source-server';
import { waitFor, within } from './testing/test-app';

/**
 * A team working one account across two real server processes on one PostgreSQL: a conversation
 * assigned on one process is the agent's on the other within a second, a note written on either
 * never reaches WhatsApp, and a queue closed now answers its out-of-hours message once however
 * many messages arrive. (PostgreSQL only: the embedded database is one process by design.)
 */
const ADMIN = { username: 'admin', password: 'admin-team-1' };
const OUT_OF_HOURS = 'O suporte atende de 8h às 18h. Responderemos assim que abrirmos.';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
const servers: NodeServer[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

/** A weekday that is not today in São Paulo: a queue open only then is closed now. */
function notToday(): (typeof WEEKDAYS)[number] {
  const today = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'America/Sao_Paulo' })
    .format(new Date())
    .toLowerCase();
  return WEEKDAYS.find((d) => d !== today) ?? 'monday';
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'disparo-team-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  database = await createDatabase(process.env.TEST_DATABASE_URL as string, 'disparo_team');
  cleanups.push(() => database.drop());
  const started = await Promise.all(
    ['a', 'b'].map((name) =>
      startSourceServer(
        name,
        {
          DATABASE_URL: database.url,
          DATA_DIR: dataDir,
          ADMIN_USERNAME: ADMIN.username,
          ADMIN_PASSWORD: ADMIN.password,
        },
        { stopTimeoutMs: 30_000 },
      ),
    ),
  );
  for (const s of started) cleanups.push(() => s.stop());
  servers.push(...started);
  for (const s of servers) {
    if (!(await untilHealthy(s))) throw new Error(`${s.name} did not start:\n${s.output()}`);
  }
}, 180_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
}, 120_000);

/** The owner of a professional account, approved by the administrator, signed in on process `a`. */
async function owner(): Promise<{ id: string; session: HttpSession }> {
  const [a] = servers;
  const username = 'lojaequipe';
  const password = 'senha-lojaequipe';
  const registered = await apiFetch(a.url, '', 'POST', '/api/auth/register', {
    name: 'Loja Equipe',
    email: 'lojaequipe@example.com',
    username,
    password,
    whatsappNumber: '+55 11 91234-0000',
  });
  expect(registered.status, registered.text).toBe(201);
  const admin = await signIn(a.url, ADMIN);
  const users = await apiFetch(a.url, admin.cookie, 'GET', '/api/admin/users');
  const user = (users.body as Array<{ id: string; username: string }>).find((u) => u.username === username);
  expect(user).toBeDefined();
  const approved = await apiFetch(a.url, admin.cookie, 'PATCH', `/api/admin/users/${user?.id}`, {
    isActive: true,
    planType: 'professional',
  });
  expect(approved.status, approved.text).toBe(200);
  return { id: user?.id as string, session: await signIn(a.url, { username, password }) };
}

describe('a team on two processes', () => {
  it('an assignment on one process is the agent’s on the other within a second; a note never reaches WhatsApp; a closed queue answers once', async () => {
    const [a, b] = servers;
    const boss = await owner();
    const at = (base: string): HttpSession => ({ base, cookie: boss.session.cookie });

    // The agent joins through an invitation made on A, accepted on B.
    const invited = await apiFetch(a.url, boss.session.cookie, 'POST', '/api/team/invitations', {
      name: 'Ana Atendente',
      email: 'ana.atendente@example.com',
      role: 'agent',
    });
    expect(invited.status, invited.text).toBe(200);
    const token = new URL(invited.body.inviteUrl as string, a.url).searchParams.get('token');
    const accepted = await apiFetch(b.url, '', 'POST', '/api/auth/accept-invitation', {
      token,
      username: 'ana.atendente',
      password: 'senha-da-ana-1',
    });
    expect(accepted.status, accepted.text).toBe(200);
    const agentOnB = await signIn(b.url, { username: 'ana.atendente', password: 'senha-da-ana-1' });
    const team = await apiFetch(a.url, boss.session.cookie, 'GET', '/api/team');
    const agentId = (team.body.members as Array<{ id: string; username: string }>).find(
      (m) => m.username === 'ana.atendente',
    )?.id as string;
    expect(agentId).toBeDefined();

    // A personal number of the account, paired through A (the simulator connects by itself).
    const settings = await apiFetch(a.url, boss.session.cookie, 'PUT', '/api/settings/whatsapp', {
      ...sendingSettings('personal'),
    });
    expect(settings.status, settings.text).toBe(200);
    const added = await apiFetch(a.url, boss.session.cookie, 'POST', '/api/connections', {
      kind: 'personal',
      label: 'Suporte',
    });
    expect(added.status, added.text).toBe(201);
    const numberId = added.body.connection.id as string;
    const connect = await apiFetch(a.url, boss.session.cookie, 'POST', `/api/connections/${numberId}/connect`, {});
    expect(connect.status, connect.text).toBe(200);
    for (const s of servers) {
      await waitFor(
        async () => (await apiFetch(s.url, boss.session.cookie, 'GET', `/api/connections/${numberId}`)).body,
        (c) => c.status === 'connected' && c.phoneNumber !== null,
        30_000,
      );
    }

    // The number's queue, worked by the agent, closed today: created on B.
    const queue = await apiFetch(b.url, boss.session.cookie, 'POST', '/api/queues', {
      name: 'Suporte',
      connectionIds: [numberId],
      memberIds: [agentId],
      hours: { start: '08:00', end: '18:00', days: [notToday()] },
      outOfHoursMessage: OUT_OF_HOURS,
    });
    expect(queue.status, queue.text).toBeLessThan(300);

    // A customer writes three times; the inbound route answers on whichever process is asked.
    const from = '5521977771234';
    const outbox = async () =>
      (
        (await apiFetch(a.url, boss.session.cookie, 'GET', '/api/whatsapp/simulator/outbox')).body.messages as Array<{
          to: string;
        }>
      ).filter((m) => m.to.replace(/\D/g, '').endsWith(from));
    for (const [i, s] of [a, b, a].entries()) {
      const said = await apiFetch(s.url, boss.session.cookie, 'POST', '/api/whatsapp/simulator/inbound', {
        from,
        connectionId: numberId,
        text: `preciso de ajuda ${i + 1}`,
      });
      expect(said.status, said.text).toBeLessThan(300);
      await waitFor(
        async () =>
          (await apiFetch(s.url, boss.session.cookie, 'GET', `/api/conversations/${from}`)).body?.messages?.filter(
            (m: { direction: string }) => m.direction === 'in',
          ).length ?? 0,
        (n) => n === i + 1,
        15_000,
      );
    }
    // Whatever job or process might still send it again has had its chance.
    await new Promise((r) => setTimeout(r, 3000));
    const thread = (await apiFetch(b.url, boss.session.cookie, 'GET', `/api/conversations/${from}`)).body
      .messages as Array<{
      direction: string;
      text: string;
    }>;
    expect(thread.filter((m) => m.direction === 'out').map((m) => m.text)).toEqual([OUT_OF_HOURS]);
    expect(await outbox()).toHaveLength(1);

    // The agent's 'Minhas' on B: empty, then the conversation within a second of the owner's assignment on A.
    const mine = async () =>
      (await apiFetch(b.url, agentOnB.cookie, 'GET', '/api/conversations?assignee=me')).body.conversations as Array<{
        phone: string;
      }>;
    expect(await mine()).toEqual([]);
    const assigned = await apiFetch(a.url, boss.session.cookie, 'POST', `/api/conversations/${from}/assign`, {
      memberId: agentId,
    });
    expect(assigned.status, assigned.text).toBe(200);
    const seenIn = await within(1000, async () =>
      (await mine()).some((c) => c.phone.replace(/\D/g, '').endsWith(from)),
    );
    expect(seenIn).toBeLessThanOrEqual(1000);
    // The owner's view on B names her too.
    const listed = (await apiFetch(at(b.url).base, boss.session.cookie, 'GET', '/api/conversations')).body
      .conversations as Array<{ phone: string; assigneeId: string | null }>;
    expect(listed.find((c) => c.phone.replace(/\D/g, '').endsWith(from))?.assigneeId).toBe(agentId);

    // A note by the agent on B: in the thread for the owner on A, never sent to WhatsApp by either.
    const noted = await apiFetch(b.url, agentOnB.cookie, 'POST', `/api/conversations/${from}/notes`, {
      text: 'Cliente pediu retorno amanhã cedo',
    });
    expect(noted.status, noted.text).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const onA = (await apiFetch(a.url, boss.session.cookie, 'GET', `/api/conversations/${from}`)).body
      .messages as Array<{ source: string; text: string }>;
    expect(onA.at(-1)).toMatchObject({ source: 'note', text: 'Cliente pediu retorno amanhã cedo' });
    expect(await outbox()).toHaveLength(1);
  }, 150_000);
});
