import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { metricsResponse } from '../../../contract/metrics';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { getMetrics } from './metrics.service';

export const metricsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '',
    {
      config: { access: 'customer' },
      schema: { tags: ['metrics'], summary: 'Dashboard figures', response: { 200: metricsResponse } },
    },
    async (request) => getMetrics(db, authed(request).user.id),
  );
};
