import type { FastifyBaseLogger } from 'fastify';
import type NodemailerModule from 'nodemailer';
import type { Config, Mailbox } from '../config';
import { lazyModule } from '../lib/lazy-module';

/** nodemailer loads when an SMTP server is configured, not in every process. */
const loadNodemailer = lazyModule<typeof NodemailerModule>('nodemailer');

/** One e-mail: plain text and the same in simple HTML (server/mail/templates.ts writes both). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * How this server's e-mail leaves it:
 * - `smtp`: through the server at SMTP_URL;
 * - `log`: SMTP_URL unset outside production — each message, link included, is written to the log
 *   so a developer can follow it; nothing is sent;
 * - `off`: SMTP_URL unset in production — nothing is sent, nothing is logged (a reset link in a
 *   production log would open the account to whoever reads it); the features that need e-mail say
 *   it is not configured.
 */
export type MailMode = 'smtp' | 'log' | 'off';

type MailLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

/** How long a connection, the server's greeting and a quiet socket may take before a send fails. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;
/** E-mails waiting to go at once; past this, new ones are dropped (logged) instead of piling up. */
const MAX_PENDING = 1000;
/** At shutdown, how long e-mails under way may take before the connections close. */
const CLOSE_WAIT_MS = 5_000;

interface Transport {
  send(from: Mailbox, message: MailMessage): Promise<void>;
  close(): void;
}

function smtpTransport(url: string): Transport {
  // Two connections at most, reused: a burst of notices queues instead of opening a socket each.
  const transporter = loadNodemailer().createTransport({ url, pool: true, maxConnections: 2, ...SMTP_TIMEOUTS });
  return {
    send: async (from, m) => {
      await transporter.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
    close: () => transporter.close(),
  };
}

function logTransport(log: MailLog): Transport {
  return {
    send: async (from, m) => {
      log.info(
        { mail: { from: from.address, to: m.to, subject: m.subject, text: m.text } },
        'e-mail (not sent: SMTP_URL is not set)',
      );
    },
    close: () => {},
  };
}

/**
 * The e-mail service app.ts builds and passes down, like the WhatsApp drivers. Callers hand it work
 * with `sendLater`, which never waits for the SMTP server nor throws: what to send is composed and
 * sent in the background, and a failure is logged.
 */
export class Mailer {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    readonly mode: MailMode,
    private readonly from: Mailbox,
    private readonly transport: Transport | null,
    private readonly log: MailLog,
    /** Where the links in the e-mails point: PUBLIC_URL, or this server on localhost in development. */
    private readonly baseUrl: string,
  ) {}

  /** An absolute link to a path of the browser app, for an e-mail. */
  link(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  /** Whether e-mail leaves this server at all (sent, or written to the log in development). */
  get available(): boolean {
    return this.transport !== null;
  }

  /**
   * Runs `compose` in the background and sends the message it answers (none for null). `kind`
   * names the e-mail in the log; neither the address nor the text is logged.
   */
  sendLater(kind: string, compose: () => Promise<MailMessage | null>, context: Record<string, unknown> = {}): void {
    if (!this.transport) return;
    if (this.pending.size >= MAX_PENDING) {
      this.log.warn({ kind, ...context }, 'e-mail dropped: too many waiting to be sent');
      return;
    }
    const transport = this.transport;
    const work = (async () => {
      try {
        const message = await compose();
        if (!message) return;
        await transport.send(this.from, message);
        if (this.mode === 'smtp') this.log.info({ kind, ...context }, 'e-mail sent');
      } catch (err) {
        this.log.error({ err, kind, ...context }, 'e-mail not sent');
      }
    })();
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Resolves once every e-mail handed over so far has been sent or has failed (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Lets e-mails under way finish (for a few seconds at most), then closes the connections. */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    this.transport?.close();
  }
}

/** The mailer of this configuration: SMTP_URL's server, else the log (development) or nothing (production). */
export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'PUBLIC_URL' | 'PORT' | 'isProduction'>,
  log: MailLog,
): Mailer {
  // PUBLIC_URL is required with SMTP_URL in production (config.ts); the Host of a request is never used.
  const baseUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  if (config.SMTP_URL) return new Mailer('smtp', config.MAIL_FROM, smtpTransport(config.SMTP_URL), log, baseUrl);
  if (config.isProduction) {
    log.warn('SMTP_URL is not set: no e-mail is sent (password reset and e-mail notices are unavailable)');
    return new Mailer('off', config.MAIL_FROM, null, log, baseUrl);
  }
  log.warn('SMTP_URL is not set: e-mails are written to this log instead of being sent (development only)');
  return new Mailer('log', config.MAIL_FROM, logTransport(log), log, baseUrl);
}
