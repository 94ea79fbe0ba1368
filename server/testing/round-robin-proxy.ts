import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer for tests: each request goes to the next of the upstream servers in turn (an
 * upstream that refuses the connection is skipped, as a proxy's health check would), so one
 * browser's requests, one contact's webhooks, land on every process.
 */
export class RoundRobinProxy {
  private server: Server | undefined;
  private next = 0;
  /** Which upstream answered each request, in order (its base URL). */
  readonly served: string[] = [];

  constructor(private upstreams: string[]) {}

  setUpstreams(upstreams: string[]): void {
    this.upstreams = upstreams;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        this.forward(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks), res, 0),
      );
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  private forward(
    method: string,
    path: string,
    headers: import('node:http').IncomingHttpHeaders,
    body: Buffer,
    res: import('node:http').ServerResponse,
    tries: number,
  ): void {
    const base = this.upstreams[this.next++ % this.upstreams.length];
    const target = new URL(base);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers: { ...headers, connection: 'close' } },
      (answer) => {
        this.served.push(base);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (tries + 1 < this.upstreams.length) return this.forward(method, path, headers, body, res, tries + 1);
      res.writeHead(502).end();
    });
    upstream.end(body);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
