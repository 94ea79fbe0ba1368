import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okResponse } from '../../../contract/responses';
import {
  twoFactorDisableInput,
  twoFactorEnableInput,
  twoFactorEnableResponse,
  twoFactorMsg,
  twoFactorSetupResponse,
} from '../../../contract/two-factor';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { setUpTwoFactor, turnOffTwoFactor, turnOnTwoFactor } from './two-factor';

/**
 * /api/auth/2fa: the signed-in login's own second factor (its owner's or a member's, never another's).
 * Setting it up answers a login its account holds to it before anything else (`beforeTwoFactor`).
 */
export const twoFactorRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('auth', 'session');
  // A code has a million values: few tries a minute, like a password.
  const rateLimit = { max: Math.max(5, deps.config.LOGIN_RATE_LIMIT), timeWindow: '1 minute' };

  app.post(
    '/2fa/setup',
    spec(
      'Start turning two-factor sign-in on: a new secret and its otpauth:// link (for the QR code)',
      { response: { 200: twoFactorSetupResponse } },
      { beforeTwoFactor: true },
    ),
    async (request) => setUpTwoFactor({ ...deps, log: request.log }, authed(request)),
  );

  app.post(
    '/2fa/enable',
    spec(
      'Turn two-factor sign-in on with a first code of the new secret: ten recovery codes, shown once',
      { body: twoFactorEnableInput, response: { 200: twoFactorEnableResponse } },
      { beforeTwoFactor: true, rateLimit },
    ),
    async (request) => {
      const recoveryCodes = await turnOnTwoFactor({ ...deps, log: request.log }, authed(request), {
        code: request.body.code,
        currentToken: request.sessionToken,
      });
      return { success: true as const, message: twoFactorMsg.enabled, recoveryCodes };
    },
  );

  app.post(
    '/2fa/disable',
    spec(
      'Turn two-factor sign-in off, with the password and a code (refused where the account requires it)',
      { body: twoFactorDisableInput, response: { 200: okResponse } },
      { rateLimit },
    ),
    async (request) => {
      await turnOffTwoFactor({ ...deps, log: request.log }, authed(request), request.body);
      return { success: true, message: twoFactorMsg.disabled };
    },
  );
};
