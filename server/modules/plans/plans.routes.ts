import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recentActivationsResponse } from '../../../contract/settings';
import type { AppDeps } from '../../deps';
import { listRecentActivations } from './plans.service';

export const plansRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/recent',
    {
      config: { access: 'customer' },
      // Anyone signed in who may read (demo accounts show it as the purchase notice); no personal data.
      schema: {
        tags: ['plans'],
        summary: 'Plan activations of the last 30 days: plan label and time only',
        response: { 200: recentActivationsResponse },
      },
    },
    async () => listRecentActivations(db),
  );
};
