import type { FastifyContextConfig, FastifySchema } from 'fastify';
import type { TeamRole } from '../../contract/auth';
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
 * `team` is the least team role of the module's customer routes (the access gate's default,
 * `manager`, when absent); `config` adds to or overrides the module's (another access or team
 * role, a rate limit, `demoWritable`).
 */
export function routeSpec(tag: string, access: Access, team?: TeamRole) {
  const module: FastifyContextConfig = team ? { access, team } : { access };
  return <S extends RouteSchema>(summary: string, schema: S, config?: FastifyContextConfig) => ({
    config: { ...module, ...config },
    schema: { tags: [tag], summary, ...schema },
  });
}

/** A route any team member may call, an agent included (`spec(summary, schema, forAgents)`). */
export const forAgents: FastifyContextConfig = { team: 'agent' };
