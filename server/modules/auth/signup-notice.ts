import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';
import { mailTemplates } from '../../mail/templates';

/** At most one 'someone tried to sign up with your e-mail' per account in this time. */
export const SIGNUP_NOTICE_EVERY_MINUTES = 15;

/**
 * Tells the owner of an address that someone tried to sign up with it (a sign-up answers a taken
 * address as a free one, so this e-mail is where the owner, or the person who forgot having an
 * account, learns it). In the background, as the confirmation e-mail of a new account is, so the
 * two answers take alike; spaced per account, so sign-ups cannot flood an inbox with them.
 */
export function sendSignupNoticeLater(
  deps: { db: Db; config: Config; mail: { mailer: Mailer } },
  ownerId: string | undefined,
): void {
  const { mailer } = deps.mail;
  if (!ownerId || !mailer.available) return;
  mailer.sendLater(
    'signup_attempt',
    async () => {
      const [owner] = await deps.db
        .update(users)
        .set({ signupNoticeAt: sql`now()` })
        .where(
          and(
            eq(users.id, ownerId),
            or(
              isNull(users.signupNoticeAt),
              lt(users.signupNoticeAt, sql`now() - ${`${SIGNUP_NOTICE_EVERY_MINUTES} minutes`}::interval`),
            ),
          ),
        )
        .returning({ name: users.name, email: users.email, username: users.username });
      if (!owner) return null;
      return {
        to: owner.email,
        ...mailTemplates.signupAttempt({
          product: deps.config.PRODUCT_NAME,
          name: owner.name,
          username: owner.username,
          loginUrl: mailer.link('/login'),
          forgotUrl: mailer.link(`/esqueci-senha?email=${encodeURIComponent(owner.email)}`),
        }),
      };
    },
    { userId: ownerId },
  );
}
