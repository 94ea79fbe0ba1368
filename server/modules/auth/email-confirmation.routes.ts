import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  confirmEmailInput,
  EMAIL_CONFIRMATION_HOURS,
  EMAIL_CONFIRMATION_PER_HOUR,
  emailConfirmationMsg,
} from '../../../contract/email-confirmation';
import { okResponse } from '../../../contract/responses';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { Mailer, MailMessage } from '../../mail/mailer';
import { mailTemplates } from '../../mail/templates';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { confirmEmail, createEmailConfirmation, resendEmailConfirmation } from './email-confirmation.service';

type MailDeps = { db: Db; config: Config; mail: { mailer: Mailer } };

function confirmationMail(deps: MailDeps, user: Pick<UserRow, 'name' | 'email'>, token: string): MailMessage {
  return {
    to: user.email,
    ...mailTemplates.emailConfirmation({
      product: deps.config.PRODUCT_NAME,
      name: user.name,
      url: deps.mail.mailer.link(`/confirmar-email?token=${encodeURIComponent(token)}`),
      hours: EMAIL_CONFIRMATION_HOURS,
    }),
  };
}

/**
 * E-mails a new account its 'Confirme seu email' link, in the background (the signup's answer does
 * not wait for the SMTP server). Nothing is sent where e-mail is off.
 */
export function sendEmailConfirmationLater(deps: MailDeps, user: Pick<UserRow, 'id' | 'name' | 'email'>): void {
  const { mailer } = deps.mail;
  if (!mailer.available) return;
  mailer.sendLater('email_confirmation', async () =>
    confirmationMail(deps, user, await createEmailConfirmation(deps.db, user.id)),
  );
}

/**
 * POST /api/auth/confirm-email: the link of 'Confirme seu email'; POST /api/auth/resend-confirmation:
 * 'Reenviar e-mail de confirmação', for the signed-in account.
 */
export const emailConfirmationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('auth', 'public');
  const { db, config, mail, sessions } = deps;
  const rateLimit = {
    max: config.LOGIN_RATE_LIMIT,
    timeWindow: '1 minute',
    errorResponseBuilder: () => new AppError('RATE_LIMITED', 'Muitas tentativas. Aguarde um minuto e tente novamente.'),
  };
  app.post(
    '/confirm-email',
    spec(
      "Confirm a new account's e-mail address with the e-mailed link (works once)",
      { body: confirmEmailInput, response: { 200: okResponse } },
      { rateLimit },
    ),
    async (request) => {
      const user = await confirmEmail(db, request.body.token);
      // The account's open sessions show the confirmed address at their next request.
      sessions.forgetUser(user.id);
      return { success: true, message: emailConfirmationMsg.done };
    },
  );

  app.post(
    '/resend-confirmation',
    spec(
      `E-mail the signed-in account a new confirmation link (at most ${EMAIL_CONFIRMATION_PER_HOUR} an hour; 429 with Retry-After past that)`,
      { response: { 200: okResponse } },
      { access: 'session', rateLimit },
    ),
    async (request, reply) => {
      const { user } = authed(request);
      if (!mail.mailer.available) throw new AppError('UNAVAILABLE', emailConfirmationMsg.resendUnavailable);
      const result = await resendEmailConfirmation(db, user.id);
      if ('retryAfterSeconds' in result) {
        reply.header('retry-after', String(result.retryAfterSeconds));
        throw new AppError(
          'RATE_LIMITED',
          emailConfirmationMsg.resendLimited(Math.ceil(result.retryAfterSeconds / 60)),
        );
      }
      mail.mailer.sendLater('email_confirmation', async () => confirmationMail(deps, user, result.token), {
        userId: user.id,
      });
      return { success: true, message: emailConfirmationMsg.resent(user.email) };
    },
  );
};
