import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hasTeamRole, type TeamRole, teamMsg } from '../../contract/team';
import { DEFAULT_TEAM_ROLE } from '../plugins/access';
import { pathSpellings } from '../testing/path-spellings';
import { listen, rawRequest } from '../testing/raw-http';
import { newMember } from '../testing/team';
import { createTestApp, newCustomer, type TestContext } from '../testing/test-app';

vi.setConfig({ testTimeout: 180_000 });

/**
 * Team roles, generated from the route table and replayed over a real socket with every spelling of
 * each path: an agent is refused (403, in pt-BR) exactly the customer routes whose declared least
 * role is above an agent, a manager exactly those declared for the owner alone, and each is let
 * through everywhere else. The table itself is held to the policy: the routes an agent may call and
 * those only the owner may call are listed here, so widening either is a visible change.
 */

/** Every customer route an agent may call (Conversas, contacts read and edit, campaigns and reports read, files). */
const AGENT_ROUTES = [
  'GET /api/activity',
  'GET /api/campaigns',
  'GET /api/campaigns/:id',
  'GET /api/campaigns/:id/forecast',
  'GET /api/campaigns/:id/numbers',
  'GET /api/campaigns/:id/recipients',
  'GET /api/campaigns/:id/recipients/export',
  'GET /api/contacts',
  'POST /api/contacts',
  'GET /api/contacts/export',
  'GET /api/contacts/tags',
  'PUT /api/contacts/:id',
  'GET /api/conversations',
  'GET /api/conversations/:phone',
  'POST /api/conversations/:phone/assign',
  'POST /api/conversations/:phone/notes',
  'POST /api/conversations/:phone/messages',
  'POST /api/conversations/:phone/release',
  'POST /api/conversations/:phone/status',
  'POST /api/conversations/:phone/takeover',
  'GET /api/groups',
  'GET /api/messages',
  'GET /api/messages/:id',
  'GET /api/metrics',
  'GET /api/metrics/analytics',
  'GET /api/metrics/report',
  'GET /api/metrics/today',
  'GET /api/quick-replies',
  'GET /api/queues',
  'GET /api/team/directory',
  'GET /api/reports/pdf',
  'POST /api/uploads',
  'GET /api/uploads/:id',
  'GET /api/users/active',
  'GET /api/users/online-count',
  'GET /api/whatsapp-session',
  'GET /api/whatsapp/channel',
].sort();

/** Customer routes only the account's owner may call. */
const OWNER_ROUTES = ['POST /api/backup/restore', 'PUT /api/team/settings'];

let ctx: TestContext;
let port: number;
const cookies: Record<'agent' | 'manager', string> = { agent: '', manager: '' };

beforeAll(async () => {
  ctx = await createTestApp();
  port = await listen(ctx);
  const owner = await newCustomer(ctx, { planType: 'professional' });
  cookies.agent = (await newMember(ctx, owner.user, 'agent')).cookie;
  cookies.manager = (await newMember(ctx, owner.user, 'manager')).cookie;
}, 60_000);

afterAll(() => ctx?.close());

const customerRoutes = () => ctx.app.deps.routes.filter((r) => r.access === 'customer');
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const leastRole = (r: { team?: TeamRole }) => r.team ?? DEFAULT_TEAM_ROLE;

/** The route's path with ids nobody has: a refusal must come from the role, never from a lookup. */
const concrete = (url: string) => url.replace(':phone', '5511900000000').replace(/:\w+/g, () => randomUUID());

async function ask(cookie: string, method: string, path: string) {
  const origin = `http://127.0.0.1:${port}`;
  const res = await rawRequest(port, method, path, { cookie, origin });
  let message = '';
  try {
    message = (JSON.parse(res.body) as { message?: string }).message ?? '';
  } catch {}
  return { status: res.status, message };
}

describe('the route table', () => {
  it('lets an agent call exactly the listed routes, and the owner alone the owner’s', () => {
    const routes = customerRoutes();
    expect(routes.length).toBeGreaterThan(60);
    expect(
      routes
        .filter((r) => hasTeamRole('agent', leastRole(r)))
        .map(key)
        .sort(),
    ).toEqual(AGENT_ROUTES);
    expect(
      routes
        .filter((r) => leastRole(r) === 'owner')
        .map(key)
        .sort(),
    ).toEqual(OWNER_ROUTES);
  });
});

/** The refusal names what is missing: the owner, or a role above an agent. */
const refusalOf = (least: TeamRole) => (least === 'owner' ? teamMsg.managerForbidden : teamMsg.agentForbidden);

describe.each(['agent', 'manager'] as const)('a %s', (role) => {
  it('is refused every route above its role, on every spelling, and let through the others', async () => {
    let refused = 0;
    for (const route of customerRoutes()) {
      const path = concrete(route.url);
      const allowed = hasTeamRole(role, leastRole(route));
      const spellings = allowed ? [path] : [path, ...pathSpellings(path)];
      for (const spelled of spellings) {
        const res = await ask(cookies[role], route.method, spelled);
        const label = `${role} ${route.method} ${spelled} → ${res.status} ${res.message}`;
        if (allowed) {
          expect(res.status, label).not.toBe(403);
          expect(res.status, label).toBeLessThan(500);
        } else {
          expect(res.status, label).toBe(403);
          expect(res.message, label).toBe(refusalOf(leastRole(route)));
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});
