// The baseline of the session-poll benchmark: a bare node:http server answering the same JSON as
// `GET /api/whatsapp-session` for a disconnected account. Started as a child process, like Disparo.
// Usage: PORT=1234 HOST=127.0.0.1 node bench/bare-server.mjs
import http from 'node:http';

const body = JSON.stringify({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) };
const health = JSON.stringify({ ok: true });

const server = http.createServer((request, response) => {
  if (request.url === '/api/health') {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(health);
    return;
  }
  response.writeHead(200, headers);
  response.end(body);
});
// Same keep-alive window as Fastify's default, so idle connections behave alike.
server.keepAliveTimeout = 72_000;

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
