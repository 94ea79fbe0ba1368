import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { S3StoreOptions } from './media/s3-store';

const DEFAULT_SECRET = 'change-me';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((s) => s === 'true' || s === '1' || s === 'yes');
const optionalUrl = z.url().optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Shared buffers of the embedded database (ignored with DATABASE_URL); see server/db/pglite-data-dir.ts. */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(16).max(1024).default(64),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SESSION_SECRET: z.string().min(1).optional(),
  ADMIN_USERNAME: z.string().min(3).default('admin'),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  PUBLIC_URL: optionalUrl,
  PRODUCT_NAME: z.string().min(1).default('Disparo'),
  SUPPORT_WHATSAPP: z
    .string()
    .regex(/^\+?[\d\s()-]{10,20}$/, 'must be a phone number')
    .default('+55 11 99999-0000'),
  SUPPORT_EMAIL: z.email().default('suporte@disparo.app'),
  PAYMENT_URL_BASIC: z.url().default('https://pay.disparo.app/basico'),
  PAYMENT_URL_PROFESSIONAL: z.url().default('https://pay.disparo.app/profissional'),
  PAYMENT_URL_ENTERPRISE: z.url().default('https://pay.disparo.app/enterprise'),
  PAYMENT_URL_PREMIUM: z.url().default('https://pay.disparo.app/premium'),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
    .optional(),
  WHATSAPP_DRIVER: z.enum(['baileys', 'simulator']).default('baileys'),
  GRAPH_API_URL: z.url().default('https://graph.facebook.com'),
  GRAPH_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must look like v26.0')
    .default('v26.0'),
  /** Cloud API messages per second of one number: Meta's default 80, up to 1,000 for upgraded numbers. */
  WHATSAPP_CLOUD_THROUGHPUT: z.coerce.number().int().min(1).max(1000).default(80),
  /** How often the campaign dispatcher looks for due work. */
  DISPATCH_TICK_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /**
   * How long a process holds a WhatsApp connection's sending lane without renewing it: a process
   * that dies hands its work over after this (a claimed message after twice this).
   */
  DISPATCH_LEASE_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: optionalUrl,
  /**
   * Room for the account's files, replacing every plan's own (contract/plans.ts STORAGE_LIMITS_MB)
   * when set; unused uploads older than a day are pruned when it runs out.
   */
  UPLOADS_QUOTA_MB: z.coerce.number().int().min(5).max(100_000).optional(),
  /**
   * Where file bytes live (docs/decisions/042-media-store.md): `auto` is PostgreSQL's `media_chunks`
   * with DATABASE_URL (every process reads every file) and DATA_DIR/media on the embedded database.
   */
  MEDIA_STORE: z.enum(['auto', 'disk', 'database', 's3']).default('auto'),
  /**
   * An S3-compatible bucket for file bytes (docs/decisions/043-s3-media-store.md): bucket and both
   * keys together, or none. With them, `MEDIA_STORE=auto` is the bucket. No endpoint: AWS itself.
   */
  MEDIA_S3_ENDPOINT: optionalUrl,
  MEDIA_S3_REGION: z.string().min(1).max(64).default('us-east-1'),
  MEDIA_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lowercase letters, digits, dots, hyphens')
    .optional(),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).max(256).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).max(256).optional(),
  /** Put before every key, such as `disparo/`, to share a bucket. */
  MEDIA_S3_PREFIX: z
    .string()
    .max(200)
    .regex(/^([A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+\/?$/, 'must be path segments (letters, digits, . _ -) joined by /')
    .refine((p) => p.split('/').every((seg) => seg !== '.' && seg !== '..'), 'must not hold . or .. segments')
    .transform((p) => (p.endsWith('/') ? p : `${p}/`))
    .optional(),
  /** `host/bucket/key` addressing (MinIO); by default on with MEDIA_S3_ENDPOINT, off on AWS. */
  MEDIA_S3_FORCE_PATH_STYLE: bool.optional(),
  /** The AI model a new bot config proposes; each account chooses its own (`aiModel`). */
  OPENAI_MODEL_DEFAULT: z.string().min(1).max(100).optional(),
  /** How long the chatbot waits for an AI reply before giving up on it. */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_IDLE_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /**
   * Administrators must sign in with a second factor (TOTP): one without it is sent to set it up
   * before anything else. Off by default for a local run; set it in production.
   */
  ADMIN_REQUIRE_TWO_FACTOR: bool.default(false),
  TRUST_PROXY: bool.default(false),
  /**
   * Server processes on this machine, one port (node:cluster; server/cluster-primary.ts): a positive
   * integer, or `auto` for one per CPU core. Only with DATABASE_URL: the embedded database lives in
   * one process.
   */
  WORKERS: z
    .string()
    .default('1')
    .transform((v, ctx): number => {
      const s = v.trim().toLowerCase();
      if (s === 'auto') return availableParallelism();
      if (/^\d+$/.test(s) && Number(s) >= 1) return Number(s);
      ctx.addIssue({ code: 'custom', message: 'must be a positive integer or auto' });
      return z.NEVER;
    }),
  /**
   * The SMTP server that sends e-mail (password reset, account approved, campaign and connection
   * notices): `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`. Unset: in
   * development e-mails are written to the log; in production none is sent.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/?#\s]+/i, 'must be an smtp:// or smtps:// URL with a host')
    .refine((s) => URL.canParse(s), 'must be an smtp:// or smtps:// URL with a host')
    .optional(),
  /** Sender of the e-mails, `Name <address>` or an address; by default PRODUCT_NAME <no-reply@PUBLIC_URL's host>. */
  MAIL_FROM: z
    .string()
    .max(320)
    .refine((s) => parseMailbox(s) !== null, 'must be an e-mail address or Name <address>')
    .optional(),
  /**
   * Image links on this machine or its network that the server may download all the same: `true`
   * for any, or a comma-separated list of addresses. Off by default: for tests and local demos only.
   */
  OUTBOUND_ALLOW_PRIVATE: z
    .string()
    .default('false')
    .transform((v, ctx): boolean | string[] => {
      const s = v.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(s)) return true;
      if (['false', '0', 'no'].includes(s)) return false;
      const list = s
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      if (!list.length || !list.every((a) => isIP(a))) {
        ctx.addIssue({ code: 'custom', message: 'must be true, false or a comma-separated list of IP addresses' });
        return z.NEVER;
      }
      return list;
    }),
});

export type Env = z.infer<typeof envSchema>;

/** An e-mail sender or recipient: display name (may be empty) and address. */
export interface Mailbox {
  name: string;
  address: string;
}

/** `Name <address>`, `"Name" <address>` or a bare address; null when it is neither. */
export function parseMailbox(value: string): Mailbox | null {
  const s = value.trim();
  const angled = /^(.*?)\s*<([^<>\s]+)>$/.exec(s);
  const name = angled ? angled[1].trim().replace(/^"(.*)"$/, '$1') : '';
  const address = angled ? angled[2] : s;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a header value must not hold control characters.
  if (/[\u0000-\u001f\u007f"<>]/.test(name)) return null;
  return z.email().safeParse(address).success ? { name, address } : null;
}

export interface Config extends Omit<Env, 'SESSION_SECRET' | 'ENCRYPTION_KEY' | 'DATA_DIR' | 'MAIL_FROM'> {
  DATA_DIR: string;
  /** The bucket of MEDIA_S3_*, when configured. */
  mediaS3?: S3StoreOptions;
  SESSION_SECRET: string;
  ENCRYPTION_KEY: Buffer;
  /** MAIL_FROM, or PRODUCT_NAME <no-reply@…> with PUBLIC_URL's host (localhost without one). */
  MAIL_FROM: Mailbox;
  isProduction: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads a generated secret kept in DATA_DIR, creating it on first use. */
function keptSecret(dataDir: string, file: string, make: () => string): string {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = make();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return value;
}

/** Parses the environment once; throws ConfigError listing every bad key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(blankless);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  if (
    isProduction &&
    e.SESSION_SECRET !== undefined &&
    (e.SESSION_SECRET.length < 32 || e.SESSION_SECRET === DEFAULT_SECRET)
  ) {
    problems.push('SESSION_SECRET: in production it must be at least 32 characters and not a default value');
  }
  if (isProduction && e.ADMIN_PASSWORD !== undefined && ['admin123', 'password', '123456'].includes(e.ADMIN_PASSWORD)) {
    problems.push('ADMIN_PASSWORD: in production a default password is refused');
  }
  if (isProduction && e.SMTP_URL !== undefined && e.PUBLIC_URL === undefined) {
    problems.push('PUBLIC_URL: required with SMTP_URL in production (the links in the e-mails point to it)');
  }
  problems.push(...mediaS3Problems(e));
  if (problems.length) throw new ConfigError(problems);

  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const sessionSecret =
    e.SESSION_SECRET ?? keptSecret(dataDir, 'session-secret', () => randomBytes(32).toString('hex'));
  const encryptionKeyHex =
    e.ENCRYPTION_KEY ?? keptSecret(dataDir, 'encryption-key', () => randomBytes(32).toString('hex'));

  return {
    ...e,
    DATA_DIR: dataDir,
    SESSION_SECRET: sessionSecret,
    ENCRYPTION_KEY: Buffer.from(encryptionKeyHex, 'hex'),
    MAIL_FROM: (e.MAIL_FROM && parseMailbox(e.MAIL_FROM)) || {
      name: e.PRODUCT_NAME,
      address: `no-reply@${e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : 'localhost'}`,
    },
    mediaS3: mediaS3Of(e),
    isProduction,
  };
}

const S3_REQUIRED = ['MEDIA_S3_BUCKET', 'MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'] as const;
const S3_OPTIONAL = ['MEDIA_S3_ENDPOINT', 'MEDIA_S3_PREFIX', 'MEDIA_S3_FORCE_PATH_STYLE'] as const;

/** The bucket is all or nothing: half a configuration is a start-up error, never a silent fallback. */
function mediaS3Problems(e: Env): string[] {
  const set = S3_REQUIRED.filter((k) => e[k] !== undefined);
  if (set.length === S3_REQUIRED.length) return [];
  const missing = S3_REQUIRED.filter((k) => e[k] === undefined).join(', ');
  if (set.length) return [`MEDIA_S3_*: ${set.join(', ')} set without ${missing}; set all three or none`];
  if (e.MEDIA_STORE === 's3') return [`MEDIA_STORE: s3 needs ${missing}`];
  const stray = S3_OPTIONAL.filter((k) => e[k] !== undefined);
  if (stray.length) return [`MEDIA_S3_*: ${stray.join(', ')} set without ${missing}; set all three or none`];
  return [];
}

function mediaS3Of(e: Env): S3StoreOptions | undefined {
  if (!e.MEDIA_S3_BUCKET || !e.MEDIA_S3_ACCESS_KEY_ID || !e.MEDIA_S3_SECRET_ACCESS_KEY) return undefined;
  return {
    endpoint: e.MEDIA_S3_ENDPOINT,
    region: e.MEDIA_S3_REGION,
    bucket: e.MEDIA_S3_BUCKET,
    accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID,
    secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY,
    prefix: e.MEDIA_S3_PREFIX ?? '',
    forcePathStyle: e.MEDIA_S3_FORCE_PATH_STYLE ?? e.MEDIA_S3_ENDPOINT !== undefined,
  };
}
