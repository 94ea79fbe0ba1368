import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { ErrorBody } from '../../../contract/errors';
import { msg } from '../../../contract/messages';
import { isDatabaseUnavailable } from '../../db/errors';
import { AppError } from '../../errors';
import type { CloudConnections } from '../../whatsapp/cloud-connections';

/** The path Meta posts to, with the account's key (32 hex digits, see `configure`). */
const WEBHOOK = /^\/api\/whatsapp-business\/webhook\/([0-9a-f]{32})$/;
/** The same limit as the regular route. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;
/**
 * How long a delivery's body may take to arrive. Meta posts a few kilobytes at once; a client that
 * trickles bytes is answered 408 and its socket closed.
 */
export const WEBHOOK_BODY_DEADLINE_MS = 10_000;

/**
 * Meta's webhook deliveries, answered before Fastify's request lifecycle. A burst of inbound
 * messages arrives as many small signed posts at once, and Meta retries any that is slow; routing,
 * hooks and the reply pipeline were about a third of each one's time on the one thread. Only the
 * plain shape Meta sends is taken here — POST to the exact path, JSON with a declared length within
 * the limit, no cookie, no query string; anything else goes through the regular route, which gives
 * the same answers (a test checks both). A delivery counts as foreground work (the chatbot's
 * statements wait for it) only once its body has arrived and its signature checked out: a request
 * that has proved nothing costs the other tenants nothing.
 */
export function webhookFastPath(
  deps: { cloudApi: CloudConnections; log: FastifyBaseLogger },
  securityHeaders: Record<string, string>,
  bodyDeadlineMs = WEBHOOK_BODY_DEADLINE_MS,
): (request: IncomingMessage, response: ServerResponse) => boolean {
  const headers = [...Object.entries(securityHeaders).flat(), 'content-type', 'application/json; charset=utf-8'];
  const answer = (response: ServerResponse, status: number, body: object) => {
    const text = JSON.stringify(body);
    response.writeHead(status, [...headers, 'content-length', String(Buffer.byteLength(text))]);
    response.end(text);
  };
  const fail = (response: ServerResponse, err: unknown) => {
    if (err instanceof AppError) {
      const body: ErrorBody = { success: false, code: err.code, message: err.message };
      return answer(response, err.statusCode, body);
    }
    if (isDatabaseUnavailable(err)) {
      // As the regular route answers it: Meta delivers it again once the database is back.
      deps.log.warn({ err }, 'database unavailable');
      const body: ErrorBody = { success: false, code: 'UNAVAILABLE', message: msg.generic.unavailable };
      return answer(response, 503, body);
    }
    deps.log.error({ err }, 'webhook delivery failed');
    const body: ErrorBody = { success: false, code: 'INTERNAL', message: msg.generic.internal };
    answer(response, 500, body);
  };

  return (request, response) => {
    if (request.method !== 'POST') return false;
    const match = WEBHOOK.exec(request.url ?? '');
    if (!match) return false;
    const h = request.headers;
    if (h.cookie !== undefined || h['transfer-encoding'] !== undefined) return false;
    const type = h['content-type'];
    if (type !== 'application/json' && !type?.startsWith('application/json;')) return false;
    const length = Number(h['content-length']);
    if (!Number.isSafeInteger(length) || length < 0 || length > WEBHOOK_BODY_LIMIT) return false;

    const signature = h['x-hub-signature-256'];
    // Reading the body costs nothing shared: a client that declares a length and trickles the
    // bytes holds only its own socket, and only until the deadline. The delivery counts as
    // foreground work once its signature has checked out (receiveWebhook).
    const chunks: Buffer[] = [];
    let received = 0;
    let finished = false;
    const finish = () => {
      finished = true;
      clearTimeout(deadline);
    };
    const deadline = setTimeout(() => {
      if (finished) return;
      finish();
      request.removeAllListeners('data');
      const body: ErrorBody = { success: false, code: 'REQUEST_TIMEOUT', message: msg.generic.requestTimeout };
      const text = JSON.stringify(body);
      response.writeHead(408, [...headers, 'content-length', String(Buffer.byteLength(text)), 'connection', 'close']);
      response.end(text, () => request.socket.destroy());
    }, bodyDeadlineMs);
    deadline.unref();
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= length) chunks.push(chunk);
    });
    request.on('error', finish);
    request.on('aborted', finish);
    request.on('end', () => {
      if (finished) return;
      finish();
      if (received !== length) {
        answer(response, 400, {
          success: false,
          code: 'VALIDATION',
          message: msg.validation.invalidRequest,
        } satisfies ErrorBody);
        return;
      }
      const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
      deps.cloudApi.receiveWebhook(match[1], raw, Array.isArray(signature) ? signature[0] : signature).then(
        ({ applied }) => answer(response, 200, { success: true, applied }),
        (err: unknown) => fail(response, err),
      );
    });
    return true;
  };
}
