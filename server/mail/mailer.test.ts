import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseMailbox } from '../config';
import { SmtpSink } from '../testing/smtp-sink';
import { createMailer } from './mailer';
import { escapeHtml, mailTemplates } from './templates';

const dataDir = mkdtempSync(join(tmpdir(), 'disparo-mail-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...env });

function problems(env: Record<string, string>): string[] {
  try {
    config(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

function fakeLog() {
  const lines: Array<{ level: string; obj: unknown; msg?: string }> = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } };
}

const message = {
  to: 'ana@example.com',
  subject: 'Assunto',
  text: 'Link: http://x/redefinir-senha?token=abc',
  html: '<p>x</p>',
};

describe('configuration', () => {
  it('takes smtp:// and smtps:// URLs only', () => {
    expect(problems({ SMTP_URL: 'smtp://usuario:senha@smtp.example.com:587' })).toEqual([]);
    expect(problems({ SMTP_URL: 'smtps://smtp.example.com' })).toEqual([]);
    for (const bad of ['http://smtp.example.com', 'smtp.example.com', 'smtp://', 'smtp:///x']) {
      expect(problems({ SMTP_URL: bad }).join(), bad).toMatch(/^SMTP_URL: /);
    }
  });

  it('reads MAIL_FROM as an address or Name <address>, with a default from the product and PUBLIC_URL', () => {
    expect(config({ MAIL_FROM: 'Loja Exemplo <avisos@loja.example>' }).MAIL_FROM).toEqual({
      name: 'Loja Exemplo',
      address: 'avisos@loja.example',
    });
    expect(config({ MAIL_FROM: 'avisos@loja.example' }).MAIL_FROM).toEqual({
      name: '',
      address: 'avisos@loja.example',
    });
    expect(config({}).MAIL_FROM).toEqual({ name: 'Disparo', address: 'no-reply@localhost' });
    expect(config({ PUBLIC_URL: 'https://app.loja.example', PRODUCT_NAME: 'Loja' }).MAIL_FROM).toEqual({
      name: 'Loja',
      address: 'no-reply@app.loja.example',
    });
    for (const bad of ['Loja', 'Loja <>', 'Lo"ja <a@b.example>', 'a@b.example\r\nBcc: x@y.example']) {
      expect(parseMailbox(bad), bad).toBeNull();
      expect(problems({ MAIL_FROM: bad }).join(), bad).toMatch(/^MAIL_FROM: /);
    }
  });

  it('needs PUBLIC_URL with SMTP_URL in production, for the links', () => {
    expect(problems({ NODE_ENV: 'production', SMTP_URL: 'smtp://smtp.example.com' })).toEqual([
      'PUBLIC_URL: required with SMTP_URL in production (the links in the e-mails point to it)',
    ]);
    expect(
      problems({ NODE_ENV: 'production', SMTP_URL: 'smtp://smtp.example.com', PUBLIC_URL: 'https://app.example' }),
    ).toEqual([]);
  });
});

describe('mailer', () => {
  it('writes each e-mail to the log outside production when SMTP_URL is unset', async () => {
    const { lines, log } = fakeLog();
    const mailer = createMailer(config({ NODE_ENV: 'development' }), log);
    expect(mailer.mode).toBe('log');
    expect(mailer.available).toBe(true);
    expect(mailer.link('/login')).toBe('http://localhost:5000/login');
    mailer.sendLater('teste', async () => message);
    await mailer.idle();
    expect(lines.find((l) => l.level === 'info')?.obj).toEqual({
      mail: { from: 'no-reply@localhost', to: message.to, subject: message.subject, text: message.text },
    });
    await mailer.close();
  });

  it('sends nothing and logs no e-mail in production without SMTP_URL', async () => {
    const { lines, log } = fakeLog();
    const mailer = createMailer(config({ NODE_ENV: 'production' }), log);
    expect(mailer.mode).toBe('off');
    expect(mailer.available).toBe(false);
    let composed = false;
    mailer.sendLater('teste', async () => {
      composed = true;
      return message;
    });
    await mailer.idle();
    expect(composed).toBe(false);
    expect(JSON.stringify(lines)).not.toContain('token=abc');
    expect(lines.map((l) => l.level)).toEqual(['warn']);
  });

  it('logs a failed send and never throws to the caller', async () => {
    const sink = await new SmtpSink().start();
    const url = sink.url;
    await sink.stop();
    const { lines, log } = fakeLog();
    const mailer = createMailer(config({ SMTP_URL: url }), log);
    expect(() => mailer.sendLater('teste', async () => message, { userId: 'u1' })).not.toThrow();
    mailer.sendLater('falha', async () => {
      throw new Error('sem conta');
    });
    await mailer.idle();
    const errors = lines.filter((l) => l.level === 'error');
    expect(errors.map((e) => (e.obj as { kind: string }).kind).sort()).toEqual(['falha', 'teste']);
    expect(errors.map((e) => e.msg)).toEqual(['e-mail not sent', 'e-mail not sent']);
    await mailer.close();
  });
});

describe('templates', () => {
  it('escape what users typed in the HTML and keep it as typed in the text', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const mail = mailTemplates.campaignNotice({
      product: 'Disparo',
      name: 'Zé <script>alert(1)</script>',
      title: 'Campanha concluída',
      body: 'A campanha “<img src=x onerror=alert(1)>” terminou.',
      reportUrl: 'https://app.example/campaigns?report=1&x="y"',
    });
    expect(mail.html).not.toMatch(/<script|<img/);
    expect(mail.html).toContain('Zé &lt;script&gt;');
    expect(mail.html).toContain('href="https://app.example/campaigns?report=1&amp;x=&quot;y&quot;"');
    expect(mail.text).toContain('Olá, Zé <script>alert(1)</script>,');
    expect(mail.subject).toBe('Campanha concluída – Disparo');
  });

  it('keep a subject and a greeting on one line', () => {
    const mail = mailTemplates.passwordReset({
      product: 'Loja\r\nBcc: x',
      name: 'Ana\nMaria',
      url: 'https://a/b',
      minutes: 30,
    });
    expect(mail.subject).toBe('Redefinição de senha – Loja Bcc: x');
    expect(mail.text.startsWith('Olá, Ana Maria,\n\n')).toBe(true);
  });
});
