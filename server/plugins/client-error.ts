import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorBody, type ErrorCode, errorStatus } from '../../contract/errors';
import { msg } from '../../contract/messages';

/**
 * Requests Node's HTTP parser refuses before any route runs (a 20 KB URL, malformed request
 * lines, a client too slow to send its headers) get the same JSON error body as everything else,
 * in Portuguese, instead of Fastify's English default.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let code: ErrorCode = 'VALIDATION';
  let message: string = msg.validation.invalidRequest;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    code = 'HEADERS_TOO_LARGE';
    message = msg.generic.headersTooLarge;
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    code = 'REQUEST_TIMEOUT';
    message = msg.generic.requestTimeout;
  }
  const status = errorStatus[code];
  const body = JSON.stringify({ success: false, code, message } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
