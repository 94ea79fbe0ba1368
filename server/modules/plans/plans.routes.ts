import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recentActivationsResponse } from '../../../contract/settings';
import type { AppDeps } from '../../deps';
import { routeSpec } from '../../plugins/route-spec';
import { listRecentActivations } from './plans.service';

export const plansRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const spec = routeSpec('plans', 'customer');
  app.get(
    '/recent',
    spec('Plan activations of the last 30 days: plan label and time only', {
      response: { 200: recentActivationsResponse },
    }),
    async () => listRecentActivations(db),
  );
};
