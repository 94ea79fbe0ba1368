import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  demoSignupInput,
  demoSignupResponse,
  landingSignupInput,
  landingSignupResponse,
  loginInput,
  loginResponse,
  registerInput,
  userSchema,
} from '../../../contract/auth';
import { msg } from '../../../contract/messages';
import { okResponse } from '../../../contract/responses';
import {
  LOGIN_CHALLENGE_MINUTES,
  loginTwoFactorInput,
  twoFactorMsg,
  twoFactorRequiredResponse,
} from '../../../contract/two-factor';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { authed, SESSION_COOKIE } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { demoSignup, landingSignup, register, toPublicUser } from './auth.service';
import { sendEmailConfirmationLater } from './email-confirmation.routes';
import { signIn, signInWithCode } from './sign-in';
import { sendSignupNoticeLater } from './signup-notice';

/** The cookie of a sign-in halfway (two-factor): sent only to /api/auth, for 5 minutes. */
const CHALLENGE_COOKIE = 'disparo_2fa';

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('auth', 'public');
  const { db, sessions, config } = deps;
  const secureCookie = (request: FastifyRequest) =>
    request.protocol === 'https' || (config.PUBLIC_URL?.startsWith('https://') ?? false);
  const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie(request),
      maxAge: Math.floor((config.SESSION_ABSOLUTE_DAYS * 86_400_000) / 1000),
    });
  const signupLimit = { max: Math.max(5, config.LOGIN_RATE_LIMIT), timeWindow: '1 minute' };

  app.get(
    '/me',
    spec('Signed-in user', { response: { 200: userSchema } }, { access: 'session', beforeTwoFactor: true }),
    async (request) => toPublicUser(authed(request).member, authed(request).user),
  );

  const loginLimit = {
    max: config.LOGIN_RATE_LIMIT,
    timeWindow: '1 minute',
    errorResponseBuilder: () => new AppError('RATE_LIMITED', msg.auth.rateLimited),
  };
  const meta = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], ip: request.ip });

  app.post(
    '/login',
    spec(
      'Sign in; with two-factor sign-in on, the right password answers { twoFactorRequired } and the code goes to /login/2fa',
      { body: loginInput, response: { 200: z.union([loginResponse, twoFactorRequiredResponse]) } },
      { rateLimit: loginLimit },
    ),
    async (request, reply) => {
      // A new login always gets a new token; an earlier one on this browser is ended.
      if (request.sessionToken) await sessions.revoke(request.sessionToken);
      const outcome = await signIn({ ...deps, log: request.log }, request.body, meta(request));
      if ('challenge' in outcome) {
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        reply.setCookie(CHALLENGE_COOKIE, outcome.challenge, {
          path: '/api/auth',
          httpOnly: true,
          sameSite: 'strict',
          secure: secureCookie(request),
          maxAge: LOGIN_CHALLENGE_MINUTES * 60,
        });
        return { success: true as const, message: twoFactorMsg.loginHint, twoFactorRequired: true as const };
      }
      setSessionCookie(request, reply, outcome.token);
      return {
        success: true as const,
        message: msg.auth.loginSuccess,
        user: toPublicUser(outcome.user, outcome.account),
      };
    },
  );

  app.post(
    '/login/2fa',
    spec(
      'Second step of a two-factor sign-in: the app’s code or a recovery code, for the sign-in the password opened',
      { body: loginTwoFactorInput, response: { 200: loginResponse } },
      { rateLimit: loginLimit },
    ),
    async (request, reply) => {
      const challenge = request.cookies[CHALLENGE_COOKIE];
      if (!challenge) throw new AppError('UNAUTHENTICATED', twoFactorMsg.challengeExpired);
      const { user, account, token } = await signInWithCode(
        { ...deps, log: request.log, encryptionKey: config.ENCRYPTION_KEY },
        challenge,
        request.body.code,
        meta(request),
      ).catch((error: unknown) => {
        // A challenge that died (expired, too many codes) is no use to the browser any more.
        if (error instanceof AppError && error.code !== 'VALIDATION') {
          reply.clearCookie(CHALLENGE_COOKIE, { path: '/api/auth' });
        }
        throw error;
      });
      reply.clearCookie(CHALLENGE_COOKIE, { path: '/api/auth' });
      setSessionCookie(request, reply, token);
      return { success: true as const, message: msg.auth.loginSuccess, user: toPublicUser(user, account) };
    },
  );

  app.post(
    '/logout',
    spec('Sign out', { response: { 200: okResponse } }, { demoWritable: true, beforeTwoFactor: true }),
    async (request, reply) => {
      if (request.sessionToken) await sessions.revoke(request.sessionToken);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true, message: msg.auth.logoutSuccess };
    },
  );

  app.post(
    '/register',
    spec(
      'Create an account (pending approval); a taken e-mail gets the same answer and its owner an e-mail',
      { body: registerInput, response: { 201: okResponse } },
      { rateLimit: signupLimit },
    ),
    async (request, reply) => {
      // The same answer for a taken e-mail as for a new one (its owner is e-mailed instead).
      const outcome = await register(db, request.body, request.log);
      if ('created' in outcome) sendEmailConfirmationLater(deps, outcome.created);
      else sendSignupNoticeLater(deps, outcome.emailOwner?.id);
      return reply.status(201).send({ success: true, message: msg.auth.registerSuccess });
    },
  );

  app.post(
    '/demo-signup',
    spec(
      'Start a 2-hour demo',
      { body: demoSignupInput, response: { 201: demoSignupResponse } },
      { rateLimit: signupLimit },
    ),
    async (request, reply) => {
      const { row, credentials } = await demoSignup(db, request.body);
      const user = toPublicUser(row);
      return reply.status(201).send({
        success: true as const,
        message: msg.auth.demoCreated,
        credentials,
        user: { email: user.email, demoExpiresAt: user.demoExpiresAt },
      });
    },
  );

  app.post(
    '/signup',
    spec(
      'Landing-page signup: pending account with generated credentials; a taken e-mail gets the same answer and its owner an e-mail',
      { body: landingSignupInput, response: { 201: landingSignupResponse } },
      { rateLimit: signupLimit },
    ),
    async (request, reply) => {
      // The same answer for a taken e-mail as for a new one: credentials made alike, which open
      // nothing, and the owner is e-mailed instead.
      const outcome = await landingSignup(db, request.body, request.log);
      if ('created' in outcome) sendEmailConfirmationLater(deps, outcome.created);
      else sendSignupNoticeLater(deps, outcome.emailOwner?.id);
      return reply.status(201).send({
        success: true as const,
        message: msg.auth.signupCreated,
        credentials: outcome.credentials,
        user: { email: request.body.email },
      });
    },
  );
};
