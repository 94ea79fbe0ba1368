import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { TeamRole } from '../../contract/auth';
import { msg } from '../../contract/messages';
import { hasTeamRole, teamMsg } from '../../contract/team';
import { twoFactorMsg } from '../../contract/two-factor';
import { AppError } from '../errors';
import type { ResolvedSession, SessionStore } from '../sessions/session-store';
import { type AccountContext, accountContextOf } from './account-context';

/**
 * Who may call a route (SPEC §6), declared on each route as `config: { access }`:
 * - public: anyone;
 * - session: any signed-in account, including pending and deactivated ones (their own session and profile);
 * - customer: admins and active customers; demo accounts may only read;
 * - admin: administrators only.
 * Demo accounts are read-only everywhere unless a route sets `demoWritable` (logout).
 * Every route declares one; a route without is refused at registration.
 *
 * A `customer` route also says the least team role that may call it (`team`, contract/team.ts):
 * `manager` unless it says otherwise, so a route an agent may use is named as such, and one only
 * the owner may use (the plan, restoring a backup) says `owner`.
 */
export type Access = 'public' | 'session' | 'customer' | 'admin';

/** The least team role of a customer route that declares none. */
export const DEFAULT_TEAM_ROLE: TeamRole = 'manager';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    demoWritable?: boolean;
    /** The least team role that may call a `customer` route (DEFAULT_TEAM_ROLE when absent). */
    team?: TeamRole;
    /**
     * The route answers a login that must still set up two-factor sign-in (its account requires
     * it): who am I, sign out, and the setup itself. Every other route refuses it.
     */
    beforeTwoFactor?: boolean;
  }
  interface FastifyRequest {
    session: ResolvedSession | null;
    /** Who is asking, from the session (null without one). */
    account: AccountContext | null;
    sessionToken: string | null;
  }
}

export const SESSION_COOKIE = 'disparo_session';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who is asking in a request that passed its access check. */
export function authed(request: FastifyRequest): AccountContext {
  if (!request.account) throw new AppError('UNAUTHENTICATED', msg.auth.unauthenticated);
  return request.account;
}

/** The request's session and the context built from it, set together. */
function resolved(request: FastifyRequest, session: ResolvedSession | null): void {
  request.session = session;
  request.account = session ? contextOf(session) : null;
}

/** One context per cached session: the poll path builds none per request. */
const contexts = new WeakMap<ResolvedSession, AccountContext>();
export function contextOf(session: ResolvedSession): AccountContext {
  let context = contexts.get(session);
  if (!context) {
    context = accountContextOf(session.user, session.account);
    contexts.set(session, context);
  }
  return context;
}

function isExpiredDemo(context: AccountContext, now: number): boolean {
  const { user } = context;
  return user.accountType === 'demo' && (!user.demoExpiresAt || user.demoExpiresAt.getTime() <= now);
}

/** Why a caller may not call a route with this access and method, or undefined when it may. */
export function accessError(
  context: AccountContext | null | undefined,
  access: Access,
  method: string,
  demoWritable = false,
  team: TeamRole = DEFAULT_TEAM_ROLE,
  beforeTwoFactor = false,
): AppError | undefined {
  if (access === 'public') return undefined;
  if (!context) return new AppError('UNAUTHENTICATED', msg.auth.unauthenticated);
  if (isExpiredDemo(context, Date.now())) return new AppError('UNAUTHENTICATED', msg.auth.demoExpired);
  if (context.twoFactorPending && !beforeTwoFactor) {
    return new AppError('TWO_FACTOR_REQUIRED', twoFactorMsg.setupRequired);
  }

  const { role } = context;
  if (role === 'demo' && !READ_METHODS.has(method) && !demoWritable) {
    return new AppError('DEMO_READ_ONLY', msg.roles.demoReadOnly);
  }
  if (access === 'session') return undefined;
  if (access === 'admin') return role === 'admin' ? undefined : new AppError('FORBIDDEN', msg.roles.adminOnly);
  if (role === 'pending') return new AppError('ACCOUNT_PENDING', msg.roles.pendingRestricted);
  if (role === 'inactive') return new AppError('ACCOUNT_INACTIVE', msg.roles.inactiveRestricted);
  if (!hasTeamRole(context.teamRole, team)) {
    return new AppError('FORBIDDEN', team === 'owner' ? teamMsg.managerForbidden : teamMsg.agentForbidden);
  }
  return undefined;
}

/** Throws when the request's caller may not call the route it matched. */
export function assertAccess(request: FastifyRequest): void {
  const config = request.routeOptions.config;
  const error = accessError(
    request.account,
    config.access ?? 'admin',
    request.method,
    config.demoWritable,
    config.team,
    config.beforeTwoFactor,
  );
  if (error) throw error;
}

const THIRD_PARTY_PUBLIC = Symbol('routesArePublic');

/**
 * Registers a plugin we do not write (static files, API documentation) whose routes are public
 * by nature; every route it adds is declared `access: 'public'`.
 */
export async function registerPublicPlugin<Options extends object>(
  app: FastifyInstance,
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>,
  options: Options,
): Promise<void> {
  await app.register(async (scope) => {
    scope.decorate(THIRD_PARTY_PUBLIC, true);
    await scope.register(plugin as FastifyPluginAsync<Options>, options);
  });
}

/**
 * The access gate. Who may call a request is decided from the route it matched, never from the
 * URL string (which may be spelled in many ways the router accepts); a request that matched no
 * route is answered 404 before anything else runs. Default deny: a route that declares no access
 * cannot be registered.
 *
 * The gate runs in onRequest — before the body is even parsed, so a refused caller learns nothing
 * from validation: the cross-site check, the session, the access rule. A session found in the
 * in-memory cache is checked synchronously; this is the path of the 2-second poll, which then
 * allocates no promise and touches no database. Every request with a live session tells `seen`
 * (presence: one Map.set, see PresenceTracker).
 */
export function registerAccessControl(
  app: FastifyInstance,
  sessions: SessionStore,
  csrf: (request: FastifyRequest) => void,
  seen: (userId: string) => void = () => {},
): void {
  app.decorateRequest('session', null);
  app.decorateRequest('account', null);
  app.decorateRequest('sessionToken', null);

  app.addHook('onRoute', function declareAccess(this: FastifyInstance, route) {
    route.config ??= {};
    if (route.config.access === undefined && (this as unknown as Record<symbol, unknown>)[THIRD_PARTY_PUBLIC]) {
      route.config.access = 'public';
    }
    if (!route.config.access) {
      throw new Error(`${String(route.method)} ${route.url} declares no access (config.access)`);
    }
  });

  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    if (request.is404) return done();
    try {
      csrf(request);
      const token = request.cookies[SESSION_COOKIE];
      if (token) request.sessionToken = token;
      // Public routes (health, sign-in, static files) need no session.
      if (request.routeOptions.config.access === 'public') return done();
      if (!token) {
        assertAccess(request);
        return done();
      }
      const cached = sessions.cached(token);
      if (cached === undefined) {
        sessions.resolve(token).then((session) => {
          resolved(request, session);
          if (session) seen(session.user.id);
          try {
            assertAccess(request);
            done();
          } catch (err) {
            done(err as Error);
          }
        }, done);
        return;
      }
      resolved(request, cached);
      if (cached) seen(cached.user.id);
      assertAccess(request);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}
