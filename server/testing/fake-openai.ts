import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAiRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  authorization: string | undefined;
}

/**
 * A local OpenAI-compatible chat-completions server (POST /v1/chat/completions) following the
 * public API's shapes: answers what `respond` says, after `delayMs`, and keeps each request.
 */
export class FakeOpenAi {
  readonly requests: FakeOpenAiRequest[] = [];
  respond: (req: FakeOpenAiRequest) => string | { status: number; body: unknown } = () => 'Olá! Como posso ajudar?';
  delayMs = 0;
  private server: Server | null = null;

  get baseUrl(): string {
    if (!this.server) throw new Error('FakeOpenAi is not started');
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
          return;
        }
        const body = JSON.parse(raw) as { model: string; messages: FakeOpenAiRequest['messages'] };
        const request = { model: body.model, messages: body.messages, authorization: req.headers.authorization };
        this.requests.push(request);
        const answer = this.respond(request);
        setTimeout(() => {
          if (res.destroyed) return;
          if (typeof answer !== 'string') {
            res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              id: `chatcmpl-${this.requests.length}`,
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: body.model,
              choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
            }),
          );
        }, this.delayMs);
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
