import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers, computed once at start-up. `@fastify/helmet` rebuilds its middleware and parses
 * the policy on every request, which cost the 2-second session poll a third of its throughput; the
 * headers never change, so they are precomputed here with the same `helmet` library.
 * JSON answers of the API get the headers that matter for non-HTML responses; pages (and the API
 * documentation) get the whole set, Content-Security-Policy included.
 */
export function securityHeaders(opts: { hsts: boolean; extraImageSources?: string[] }): {
  page: Record<string, string>;
  api: Record<string, string>;
} {
  const page: Record<string, string> = {};
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(opts.extraImageSources ?? [])],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: opts.hsts,
  })(
    {} as never,
    {
      setHeader: (name: string, value: string) => {
        page[name.toLowerCase()] = value;
      },
      removeHeader: () => {},
    } as never,
    () => {},
  );
  const api: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': page['cross-origin-resource-policy'] ?? 'same-origin',
    'referrer-policy': page['referrer-policy'] ?? 'no-referrer',
    'x-frame-options': 'DENY',
  };
  if (page['strict-transport-security']) api['strict-transport-security'] = page['strict-transport-security'];
  return { page, api };
}

export function registerSecurityHeaders(
  app: FastifyInstance,
  { page, api }: { page: Record<string, string>; api: Record<string, string> },
): void {
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    reply.headers(url.startsWith('/api/') && !url.startsWith('/api/docs') ? api : page);
    done();
  });
}
