import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Role, roleOf } from '../../contract/auth';
import { msg } from '../../contract/messages';
import { AppError } from '../errors';
import type { ResolvedSession, SessionStore, UserRow } from '../modules/auth/sessions.service';

/**
 * Who may call a route (SPEC §6), declared on each route as `config: { access }`:
 * - public: anyone;
 * - session: any signed-in account, including pending and deactivated ones (their own session and profile);
 * - customer (the default for every /api route): admins and active customers; demo accounts may only read;
 * - admin: administrators only.
 * Demo accounts are read-only everywhere unless a route sets `demoWritable` (logout).
 */
export type Access = 'public' | 'session' | 'customer' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    demoWritable?: boolean;
  }
  interface FastifyRequest {
    session: ResolvedSession | null;
    sessionToken: string | null;
  }
}

export const SESSION_COOKIE = 'disparo_session';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface Authed {
  user: UserRow;
  role: Role;
}

/** The signed-in account of a request that passed its access check. */
export function authed(request: FastifyRequest): Authed {
  const user = request.session?.user;
  if (!user) throw new AppError('UNAUTHENTICATED', msg.auth.unauthenticated);
  return { user, role: roleOf(user) };
}

function isExpiredDemo(user: UserRow, now: number): boolean {
  return user.accountType === 'demo' && (!user.demoExpiresAt || user.demoExpiresAt.getTime() <= now);
}

export function registerAccessControl(app: FastifyInstance, sessions: SessionStore): void {
  app.decorateRequest('session', null);
  app.decorateRequest('sessionToken', null);

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    request.sessionToken = token;
    request.session = await sessions.resolve(token);
  });

  // Checked in onRequest, before the body is even parsed: a refused caller learns nothing from validation.
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    // Unknown paths answer 404 to everyone; the API documentation is public.
    if (!request.url.startsWith('/api/') || request.is404 || request.url.startsWith('/api/docs')) return;
    const config = request.routeOptions.config ?? {};
    const access: Access = config.access ?? 'customer';
    if (access === 'public') return;

    const user = request.session?.user;
    if (!user) throw new AppError('UNAUTHENTICATED', msg.auth.unauthenticated);
    if (isExpiredDemo(user, Date.now())) throw new AppError('UNAUTHENTICATED', msg.auth.demoExpired);

    const role = roleOf(user);
    if (role === 'demo' && !READ_METHODS.has(request.method) && !config.demoWritable) {
      throw new AppError('DEMO_READ_ONLY', msg.roles.demoReadOnly);
    }
    if (access === 'session') return;
    if (access === 'admin') {
      if (role !== 'admin') throw new AppError('FORBIDDEN', msg.roles.adminOnly);
      return;
    }
    if (role === 'pending') throw new AppError('ACCOUNT_PENDING', msg.roles.pendingRestricted);
    if (role === 'inactive') throw new AppError('ACCOUNT_INACTIVE', msg.roles.inactiveRestricted);
  });
}
