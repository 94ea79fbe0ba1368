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
 * Refuses state-changing requests sent by another site. Browsers mark them with `Sec-Fetch-Site`
 * and `Origin`; either one pointing elsewhere is enough to refuse. Server-to-server calls without
 * those headers (webhooks, curl) pass, and the SameSite=Lax cookie keeps them anonymous anyway.
 */
export function crossSiteGuard(opts: {
  publicUrl?: string;
  exemptPrefixes: string[];
}): (request: FastifyRequest) => void {
  const allowedOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : undefined;
  return (request) => {
    if (SAFE.has(request.method) || !request.url.startsWith('/api/')) return;
    if (opts.exemptPrefixes.some((p) => request.url.startsWith(p))) return;
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site') throw new AppError('CROSS_SITE', msg.auth.crossSite);
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin === allowedOrigin) return;
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (!host || host !== normalHost(request.protocol, request.headers.host)) {
      throw new AppError('CROSS_SITE', msg.auth.crossSite);
    }
  };
}
