import http from 'node:http';

/** Keep-alive connections for the setup and login requests, like a browser. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

export interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RequestOptions {
  json?: unknown;
  cookie?: string;
  timeoutMs?: number;
}

/** One HTTP request to a loopback server; resolves with the whole body, rejects on network errors. */
export function request(baseUrl: string, method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
  const payload = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const headers: http.OutgoingHttpHeaders = { accept: 'application/json' };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  if (opts.cookie) headers.cookie = opts.cookie;
  // As a browser does: writes carry the page's origin (the server refuses cookie-carrying writes without it).
  headers.origin = new URL(baseUrl).origin;
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, baseUrl),
      { method, headers, agent, timeout: opts.timeoutMs ?? 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** `name=value` of a cookie set by a response, ready for a Cookie header. */
export function cookieFrom(res: Response, name: string): string | undefined {
  for (const line of res.headers['set-cookie'] ?? []) {
    const pair = line.split(';')[0];
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return undefined;
}

/** Throws with the answer when the status is not the expected one. */
export function expectStatus(res: Response, expected: number, what: string): Response {
  if (res.status !== expected) {
    throw new Error(`${what}: expected HTTP ${expected}, got ${res.status}: ${res.body.slice(0, 500)}`);
  }
  return res;
}
