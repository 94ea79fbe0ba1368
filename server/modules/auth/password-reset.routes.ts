import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  forgotPasswordInput,
  PASSWORD_RESET_MINUTES,
  passwordResetMsg,
  resetPasswordInput,
} from '../../../contract/password-reset';
import { okResponse } from '../../../contract/responses';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { mailTemplates } from '../../mail/templates';
import { routeSpec } from '../../plugins/route-spec';
import { createPasswordReset } from './password-reset.service';
import { resetForgottenPassword } from './sign-in';

/** POST /api/auth/forgot-password and /api/auth/reset-password ('Esqueci minha senha'). */
export const passwordResetRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('auth', 'public');
  const { db, config, mail } = deps;
  // Per client address, as sign-in; the links e-mailed are limited per account and per requester
  // as well (createPasswordReset).
  const rateLimit = {
    max: config.LOGIN_RATE_LIMIT,
    timeWindow: '1 minute',
    errorResponseBuilder: () => new AppError('RATE_LIMITED', passwordResetMsg.rateLimited),
  };

  app.post(
    '/forgot-password',
    spec(
      'E-mail a link to choose a new password; the same answer whether or not the address has an account',
      { body: forgotPasswordInput, response: { 200: okResponse } },
      { rateLimit },
    ),
    async (request) => {
      const { mailer } = mail;
      if (!mailer.available) throw new AppError('UNAVAILABLE', passwordResetMsg.unavailable);
      // Answered before the account is even looked up: neither the answer nor its time tells
      // whether the address has an account, was already sent links this hour, or the e-mail failed.
      const requesterIp = request.ip;
      mailer.sendLater('password_reset', async () => {
        const reset = await createPasswordReset(db, request.body.email, requesterIp);
        if (!reset) return null;
        return {
          to: reset.user.email,
          ...mailTemplates.passwordReset({
            product: config.PRODUCT_NAME,
            name: reset.user.name,
            url: mailer.link(`/redefinir-senha?token=${encodeURIComponent(reset.token)}`),
            minutes: PASSWORD_RESET_MINUTES,
          }),
        };
      });
      return { success: true, message: passwordResetMsg.forgotSent };
    },
  );

  app.post(
    '/reset-password',
    spec(
      'Set a new password with an e-mailed link; every session of the account ends',
      { body: resetPasswordInput, response: { 200: okResponse } },
      { rateLimit },
    ),
    async (request) => {
      await resetForgottenPassword({ ...deps, log: request.log }, request.body);
      return { success: true, message: passwordResetMsg.resetDone };
    },
  );
};
