import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  confirmEmailInput,
  EMAIL_CONFIRMATION_HOURS,
  emailConfirmationMsg,
} from '../../../contract/email-confirmation';
import { okResponse } from '../../../contract/responses';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { Mailer } from '../../mail/mailer';
import { mailTemplates } from '../../mail/templates';
import { confirmEmail, createEmailConfirmation } from './email-confirmation.service';

/**
 * E-mails a new account its 'Confirme seu email' link, in the background (the signup's answer does
 * not wait for the SMTP server). Nothing is sent where e-mail is off.
 */
export function sendEmailConfirmationLater(
  deps: { db: Db; config: Config; mail: { mailer: Mailer } },
  user: Pick<UserRow, 'id' | 'name' | 'email'>,
): void {
  const { mailer } = deps.mail;
  if (!mailer.available) return;
  mailer.sendLater('email_confirmation', async () => {
    const token = await createEmailConfirmation(deps.db, user.id);
    return {
      to: user.email,
      ...mailTemplates.emailConfirmation({
        product: deps.config.PRODUCT_NAME,
        name: user.name,
        url: mailer.link(`/confirmar-email?token=${encodeURIComponent(token)}`),
        hours: EMAIL_CONFIRMATION_HOURS,
      }),
    };
  });
}

/** POST /api/auth/confirm-email: the link of 'Confirme seu email'. */
export const emailConfirmationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  const rateLimit = {
    max: config.LOGIN_RATE_LIMIT,
    timeWindow: '1 minute',
    errorResponseBuilder: () => new AppError('RATE_LIMITED', 'Muitas tentativas. Aguarde um minuto e tente novamente.'),
  };
  app.post(
    '/confirm-email',
    {
      config: { access: 'public', rateLimit },
      schema: {
        tags: ['auth'],
        summary: "Confirm a new account's e-mail address with the e-mailed link (works once)",
        body: confirmEmailInput,
        response: { 200: okResponse },
      },
    },
    async (request) => {
      await confirmEmail(db, request.body.token);
      return { success: true, message: emailConfirmationMsg.done };
    },
  );
};
