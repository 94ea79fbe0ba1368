import type { FastifyRequest } from 'fastify';
import { msg } from '../../contract/messages';
import { AppError } from '../errors';

/** 'localhost:80' over http is the same host as an Origin of 'http://localhost'. */
function normalHost(protocol: string, host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`${protocol}://${host}`).host;
  } catch {
    return undefined;
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests sent by another site, on every route whatever the spelling of
 * its path. Browsers mark requests with `Sec-Fetch-Site` and `Origin`; either one pointing
 * elsewhere is enough to refuse. A request that carries the session cookie but neither header is
 * refused too: every browser that sends cookies sends one of them on a POST, so such a request
 * was forged or stripped on the way. Server-to-server calls (webhooks, scripts) carry neither
 * header nor our cookie, and pass.
 */
export function crossSiteGuard(opts: { publicUrl?: string; sessionCookie: string }): (request: FastifyRequest) => void {
  const allowedOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : undefined;
  const refuse = () => new AppError('CROSS_SITE', msg.auth.crossSite);
  return (request) => {
    if (SAFE.has(request.method)) return;
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') throw refuse();
    const origin = request.headers.origin;
    if (origin === undefined) {
      if (site === undefined && request.cookies[opts.sessionCookie] !== undefined) throw refuse();
      return;
    }
    if (origin === allowedOrigin) return;
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (!host || host !== normalHost(request.protocol, request.headers.host)) throw refuse();
  };
}
