import { expect } from 'vitest';
import { type ReceivedMail, SmtpSink } from './smtp-sink';
import { createTestApp, type TestContext } from './test-app';

/** Where the links in e-mails point in these tests. */
export const MAIL_PUBLIC_URL = 'https://app.disparo.example';

/**
 * The real app sending its e-mail to an SMTP server on loopback (`sink`), with links to
 * MAIL_PUBLIC_URL. `close` stops both.
 */
export async function createMailTestApp(
  env: Record<string, string> = {},
  options: Parameters<typeof createTestApp>[2] = {},
): Promise<TestContext & { sink: SmtpSink }> {
  const sink = await new SmtpSink().start();
  const ctx = await createTestApp({ SMTP_URL: sink.url, PUBLIC_URL: MAIL_PUBLIC_URL, ...env }, undefined, options);
  return {
    ...ctx,
    sink,
    close: async () => {
      await ctx.close();
      await sink.stop();
    },
  };
}

/**
 * The token of an e-mail's link to `path` (`/redefinir-senha`, `/confirmar-email`), read from its
 * text and checked against its HTML.
 */
export function linkToken(mail: ReceivedMail, path: string, publicUrl = MAIL_PUBLIC_URL): string {
  const prefix = `${publicUrl}${path}?token=`;
  const at = mail.text.indexOf(prefix);
  const token = at < 0 ? '' : (/^[A-Za-z0-9_-]+/.exec(mail.text.slice(at + prefix.length))?.[0] ?? '');
  if (!token) throw new Error(`no link to ${path} in: ${mail.text}`);
  expect(mail.html).toContain(`href="${prefix}${token}"`);
  return token;
}
