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

/** Why an account may not call a route with this access and method, or undefined when it may. */
export function accessError(
  user: UserRow | null | undefined,
  access: Access,
  method: string,
  demoWritable = false,
): AppError | undefined {
  if (access === 'public') return undefined;
  if (!user) return new AppError('UNAUTHENTICATED', msg.auth.unauthenticated);
  if (isExpiredDemo(user, Date.now())) return new AppError('UNAUTHENTICATED', msg.auth.demoExpired);

  const role = roleOf(user);
  if (role === 'demo' && !READ_METHODS.has(method) && !demoWritable) {
    return new AppError('DEMO_READ_ONLY', msg.roles.demoReadOnly);
  }
  if (access === 'session') return undefined;
  if (access === 'admin') return role === 'admin' ? undefined : new AppError('FORBIDDEN', msg.roles.adminOnly);
  if (role === 'pending') return new AppError('ACCOUNT_PENDING', msg.roles.pendingRestricted);
  if (role === 'inactive') return new AppError('ACCOUNT_INACTIVE', msg.roles.inactiveRestricted);
  return undefined;
}

/** Throws when the request's account may not call its route. */
export function assertAccess(request: FastifyRequest): void {
  // Unknown paths answer 404 to everyone; the API documentation is public.
  if (request.is404 || request.url.startsWith('/api/docs')) return;
  const config = request.routeOptions.config ?? {};
  const error = accessError(request.session?.user, config.access ?? 'customer', request.method, config.demoWritable);
  if (error) throw error;
}

/**
 * One gate in front of every /api route, run in onRequest — before the body is even parsed, so a
 * refused caller learns nothing from validation: the cross-site check, the session, the access rule.
 * A session found in the in-memory cache is checked synchronously; this is the path of the 2-second
 * poll, which then allocates no promise and touches no database.
 */
export function registerAccessControl(
  app: FastifyInstance,
  sessions: SessionStore,
  csrf: (request: FastifyRequest) => void,
): void {
  app.decorateRequest('session', null);
  app.decorateRequest('sessionToken', null);

  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    if (!request.url.startsWith('/api/')) return done();
    try {
      csrf(request);
      const token = request.cookies[SESSION_COOKIE];
      if (token) {
        request.sessionToken = token;
        const cached = sessions.cached(token);
        if (cached === undefined) {
          sessions.resolve(token).then((session) => {
            request.session = session;
            try {
              assertAccess(request);
              done();
            } catch (err) {
              done(err as Error);
            }
          }, done);
          return;
        }
        request.session = cached;
      }
      assertAccess(request);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}
