import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from './test-app';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): Record<string, unknown>;
}

/**
 * A request sent over a real socket with the path exactly as given: no normalisation of dot
 * segments, slashes, case or escapes (fetch and app.inject both rewrite some of them), so tests
 * see what an attacker's hand-made request gets.
 */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          json: () => JSON.parse(text),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Starts the test app on a free loopback port and returns the port. */
export async function listen(ctx: TestContext): Promise<number> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return (ctx.app.server.address() as AddressInfo).port;
}
