import { DriverError } from '../driver';

/** An error answer of the Graph API: `{ error: { message, type, code, error_subcode, error_data } }`. */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
    readonly details?: string,
    /** How long the answer's Retry-After header asks to wait, when it has one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * A Retry-After header (seconds, or an HTTP date) in milliseconds, at most a day; undefined when
 * absent or unreadable.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const at = /^\d+$/.test(value) ? now + Number(value) * 1000 : Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.min(86_400_000, Math.max(0, at - now));
}

export interface GraphClientOptions {
  baseUrl: string;
  version: string;
  accessToken: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A thin, typed client of the WhatsApp Cloud API (Graph API); the base URL and version are configuration. */
export class GraphClient {
  constructor(private readonly opts: GraphClientOptions) {}

  private url(path: string, query?: Record<string, string>): string {
    const u = new URL(`${this.opts.baseUrl.replace(/\/$/, '')}/${this.opts.version}/${path.replace(/^\//, '')}`);
    for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
    return u.toString();
  }

  async request<T>(
    method: 'GET' | 'POST',
    path: string,
    opts: { query?: Record<string, string>; json?: unknown; form?: FormData } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.opts.accessToken}` };
    let body: string | FormData | undefined;
    if (opts.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      body = opts.form;
    }
    let res: Response;
    try {
      res = await (this.opts.fetch ?? fetch)(this.url(path, opts.query), {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw new GraphApiError(0, undefined, `Graph API unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = {};
    }
    if (!res.ok) {
      const e = (data as { error?: { message?: string; code?: number; error_data?: { details?: string } } }).error;
      throw new GraphApiError(
        res.status,
        e?.code,
        e?.message ?? `Graph API answered ${res.status}`,
        e?.error_data?.details,
        retryAfterMs(res.headers.get('retry-after')),
      );
    }
    return data as T;
  }
}

/**
 * What a Graph API error means for the sender (DESIGN §3): 130429 (throughput), 131056 (too many
 * messages to one number) and any HTTP 429 back off, as long as a Retry-After header asks when it
 * has one; 131047 (outside the 24-hour window) needs a template; 131026 cannot be delivered; 190
 * means the token is no longer valid; no answer or a 5xx is tried again later.
 */
export function toDriverError(err: unknown): DriverError {
  if (err instanceof DriverError) return err;
  if (!(err instanceof GraphApiError)) return new DriverError('transient', (err as Error)?.message ?? 'erro');
  const detail = err.details ? `${err.message}: ${err.details}` : err.message;
  switch (err.code) {
    case 130429:
      return new DriverError('transient', detail, err.retryAfterMs ?? 60_000, err.code);
    case 131056:
      return new DriverError('transient', detail, err.retryAfterMs ?? 5 * 60_000, err.code);
    case 131047:
      return new DriverError('template_required', detail, undefined, err.code);
    case 131026:
      return new DriverError('permanent', detail, undefined, err.code);
    case 190:
      return new DriverError('auth', detail, undefined, err.code);
    default:
      if (err.status === 429) return new DriverError('transient', detail, err.retryAfterMs ?? 60_000, err.code);
      if (err.status === 0 || err.status >= 500)
        return new DriverError('transient', detail, err.retryAfterMs ?? 30_000, err.code);
      return new DriverError('permanent', detail, undefined, err.code);
  }
}
