import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One e-mail as it arrived: envelope, headers and both bodies, parsed from the raw message. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps what it is sent, for tests
 * that point the app at it with SMTP_URL and read what arrived. Plain SMTP without STARTTLS and
 * without authentication: what a local relay offers.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** Called for each e-mail as it arrives (the browser tests write them where the specs read). */
  onMail?: (mail: ReceivedMail) => void;
  private server?: SMTPServer;
  private port = 0;

  async start(port = 0): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 1024 * 1024,
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', done);
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              const mail: ReceivedMail = {
                to: session.envelope.rcptTo.map((a) => a.address),
                from: parsed.from?.text ?? '',
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                raw: raw.toString('utf8'),
              };
              this.received.push(mail);
              this.onMail?.(mail);
              done();
            })
            .catch(done);
        });
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as { port: number }).port;
    return this;
  }

  /** The SMTP_URL that reaches this server. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** What was sent to this address so far, oldest first. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase()));
  }

  /** Waits until `count` e-mails have arrived for this address (at most `ms`); answers the last. */
  async waitFor(address: string, count = 1, ms = 5000): Promise<ReceivedMail> {
    const end = Date.now() + ms;
    for (;;) {
      const mails = this.to(address);
      if (mails.length >= count) return mails[count - 1];
      if (Date.now() > end) throw new Error(`${mails.length} of ${count} e-mail(s) to ${address} arrived in ${ms} ms`);
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
