import type { FastifyContextConfig, FastifySchema } from 'fastify';
import type { Access } from './access';

/** A route's schema but for its OpenAPI tag and summary, which `routeSpec` fills in. */
type RouteSchema = Omit<FastifySchema, 'tags' | 'summary'>;

/**
 * The declaration of a module's routes: who may call them (`config.access`, checked by the access
 * gate) and their OpenAPI tag, given once; each route then names only its summary and schema.
 *
 *     const spec = routeSpec('metrics', 'customer');
 *     app.get('/today', spec('Today’s figures', { response: { 200: todayMetricsResponse } }), handler);
 *
 * `config` adds to or overrides the module's (another access, a rate limit, `demoWritable`).
 */
export function routeSpec(tag: string, access: Access) {
  return <S extends RouteSchema>(summary: string, schema: S, config?: FastifyContextConfig) => ({
    config: { access, ...config },
    schema: { tags: [tag], summary, ...schema },
  });
}
