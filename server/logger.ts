import type { FastifyServerOptions } from 'fastify';

/**
 * What the log may never hold: passwords and their hashes, session tokens, API tokens and app
 * secrets, cookies, authorization headers. Any key that looks like one is replaced, at any depth.
 */
const SECRET_KEY = /password|passwd|hash|token|secret|cookie|authorization|api[-_]?key/i;
const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

function redact(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  // An error is logged only as its serializer writes it, under whatever key it was logged.
  if (value instanceof Error) return serializeError(value);
  if (depth > MAX_DEPTH || seen.has(value)) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, seen));
  // Only plain objects are copied; class instances (the request, the reply) go to their serializers.
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redact(v, depth + 1, seen);
  }
  return out;
}

/** A copy of a logged object with every secret-looking field replaced and every error serialized. */
export function redactSecrets<T>(value: T): T {
  return redact(value, 0, new WeakSet()) as T;
}

/** Query strings may carry secrets too (the webhook's `hub.verify_token`). */
export function redactUrl(url: string): string {
  return url.replace(/([?&][^=&]*(?:token|secret|password|key)[^=&]*=)[^&]*/gi, `$1${REDACTED}`);
}

/**
 * A failed query's values are not logged: Drizzle writes them into the message ("Failed query: …
 * \nparams: …") and keeps them in `params`; PostgreSQL repeats them in `detail` ("Key
 * (username)=(…) already exists"). Among them may be a password hash or a token. What stays: the
 * SQL text, the error code and constraint, the stack.
 */
const PARAMS_MARK = '\nparams: ';
/** The params line of a message inside a stack: up to the first stack frame. */
const PARAMS_IN_STACK = /\nparams: [\s\S]*?(?=\n\s+at |$)/;
const ERROR_FIELDS = ['code', 'statusCode', 'constraint', 'table', 'column', 'routine', 'severity'] as const;

/** A message without Drizzle's params line (everything from it on: the values may hold line breaks). */
export function withoutQueryParams(message: string): string {
  const at = message.indexOf(PARAMS_MARK);
  return at === -1 ? message : message.slice(0, at);
}

function stackWithoutQueryParams(stack: string, message: string): string {
  const clean = withoutQueryParams(message);
  if (clean === message) return stack;
  // The stack starts with "<name>: <message>"; replacing the whole message removes values that
  // contain line breaks too, which the pattern below could cut short.
  const at = stack.indexOf(message);
  if (at !== -1) return stack.slice(0, at) + clean + stack.slice(at + message.length);
  return stack.replace(PARAMS_IN_STACK, '');
}

export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

export function serializeError(err: unknown, depth = 0): SerializedError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  const e = err as Error & Record<string, unknown>;
  const message = typeof e.message === 'string' ? e.message : String(e.message);
  const out: SerializedError = {
    type: e.constructor?.name ?? 'Error',
    message: withoutQueryParams(message),
    stack: stackWithoutQueryParams(e.stack ?? '', message),
  };
  for (const field of ERROR_FIELDS) if (e[field] !== undefined) out[field] = e[field];
  if (typeof e.query === 'string') out.query = e.query;
  if (e.cause !== undefined && depth < 4) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/** The server's logger settings (pino, through Fastify). */
export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    serializers: {
      // `formatters.log` below runs first and has already serialized (or redacted) it.
      err: (err: unknown) => (err instanceof Error ? serializeError(err) : (err as SerializedError)),
      req: (req: { method?: string; url?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        remoteAddress: req.ip,
      }),
      // `log.error(err)` and `log.error({ err })` without a message take the error's message as theirs.
      msg: (message: unknown) => (typeof message === 'string' ? withoutQueryParams(message) : message),
    },
    formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) },
  };
}
