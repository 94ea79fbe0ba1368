import { cookieFrom, expectStatus, request } from './http';
import type { DisparoServer } from './server';

export const SESSION_COOKIE = 'disparo_session';

export interface Customer {
  id: string;
  username: string;
  password: string;
  /** `disparo_session=…`, ready for a Cookie header. */
  cookie: string;
}

/** Signs in and returns the session cookie. */
export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = expectStatus(
    await request(baseUrl, 'POST', '/api/auth/login', { json: { username, password } }),
    200,
    `login as ${username}`,
  );
  const cookie = cookieFrom(res, SESSION_COOKIE);
  if (!cookie) throw new Error(`login as ${username}: no ${SESSION_COOKIE} cookie in the answer`);
  return cookie;
}

/**
 * Creates `count` real customer accounts the way production does: each registers (pending), the
 * administrator approves it, then it signs in. Returns their credentials and session cookies.
 */
export async function createApprovedCustomers(server: DisparoServer, count: number, first = 1): Promise<Customer[]> {
  const base = server.url;
  const adminCookie = await login(base, server.admin.username, server.admin.password);
  const customers: Customer[] = [];
  for (let i = first; i < first + count; i++) {
    const username = `benchcustomer${i}`;
    const password = `bench-customer-password-${i}`;
    expectStatus(
      await request(base, 'POST', '/api/auth/register', {
        json: {
          name: `Bench Customer ${i}`,
          email: `${username}@bench.example`,
          username,
          password,
          whatsappNumber: `+55 11 9${String(i).padStart(4, '0')}-0000`,
        },
      }),
      201,
      `register ${username}`,
    );
    const list = expectStatus(
      await request(base, 'GET', '/api/admin/users', { cookie: adminCookie }),
      200,
      'list users as admin',
    );
    const user = (JSON.parse(list.body) as Array<{ id: string; username: string }>).find(
      (u) => u.username === username,
    );
    if (!user) throw new Error(`registered ${username} is not in GET /api/admin/users`);
    expectStatus(
      await request(base, 'PATCH', `/api/admin/users/${user.id}`, { json: { isActive: true }, cookie: adminCookie }),
      200,
      `approve ${username}`,
    );
    const cookie = await login(base, username, password);
    const me = JSON.parse(
      expectStatus(await request(base, 'GET', '/api/auth/me', { cookie }), 200, `GET /api/auth/me as ${username}`).body,
    ) as { accountType: string; isActive: boolean };
    if (me.accountType !== 'active' || !me.isActive) {
      throw new Error(`${username} is not an active customer after approval: ${JSON.stringify(me)}`);
    }
    customers.push({ id: user.id, username, password, cookie });
  }
  return customers;
}
