import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** A POST's answer: its status, the time from writing the request to its whole answer, its body. */
export interface PostAnswer {
  status: number;
  ms: number;
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * A load generator's HTTP/1.1 client for many small POSTs over kept-alive connections, each request
 * written as one prebuilt buffer and each answer read by its Content-Length. `http.request` costs
 * about as much CPU per request as the server's own handling of a webhook, and on a 2-core machine
 * that both slowed the server and queued answers in the generator's event loop, where they were
 * timed as the server's: this client is to the server what a separate sender would be. Made for
 * the benchmarks' own server, which always answers with a Content-Length.
 */
export class KeepAlivePoster {
  private readonly idle: Socket[] = [];
  private readonly all = new Set<Socket>();

  constructor(
    private readonly url: URL,
    private readonly timeoutMs = 30_000,
  ) {}

  /** The request's bytes, built once (before the clock starts). */
  request(body: Buffer, headers: Record<string, string>): Buffer {
    const lines = [
      `POST ${this.url.pathname}${this.url.search} HTTP/1.1`,
      `host: ${this.url.host}`,
      'connection: keep-alive',
      `content-length: ${body.length}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
  }

  /** Sends a request built by `request` on an idle connection (or a new one) and reads its answer. */
  async post(request: Buffer): Promise<PostAnswer> {
    const t0 = performance.now();
    const socket = this.idle.pop() ?? (await this.open());
    return new Promise<PostAnswer>((resolve, reject) => {
      let buffered: Buffer = Buffer.alloc(0);
      let headerLength = -1;
      let status = 0;
      let bodyLength = 0;
      const done = (err?: Error) => {
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.setTimeout(0);
        if (err) {
          socket.destroy();
          reject(err);
        }
      };
      const onClose = () => done(new Error('connection closed before the answer'));
      const onData = (chunk: Buffer) => {
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
        if (headerLength < 0) {
          const end = buffered.indexOf(HEADER_END);
          if (end < 0) return;
          headerLength = end + HEADER_END.length;
          const head = buffered.subarray(0, end).toString('latin1');
          status = Number(head.slice(9, 12));
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          if (!length) return done(new Error(`answer without content-length: ${head.slice(0, 200)}`));
          bodyLength = Number(length[1]);
        }
        if (buffered.length < headerLength + bodyLength) return;
        const ms = performance.now() - t0;
        done();
        this.idle.push(socket);
        resolve({ status, ms, body: buffered.subarray(headerLength, headerLength + bodyLength).toString('utf8') });
      };
      socket.on('data', onData);
      socket.on('close', onClose);
      socket.setTimeout(this.timeoutMs, () => done(new Error('webhook timed out')));
      socket.write(request);
    });
  }

  close(): void {
    for (const socket of this.all) socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.url.hostname, port: Number(this.url.port), noDelay: true });
      socket.once('connect', () => {
        socket.off('error', reject);
        // A connection the server closes while idle is dropped from the pool.
        socket.on('error', () => socket.destroy());
        socket.on('close', () => {
          this.all.delete(socket);
          const at = this.idle.indexOf(socket);
          if (at >= 0) this.idle.splice(at, 1);
        });
        this.all.add(socket);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }
}
