import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { campaignList } from '../../../contract/campaigns';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { listCampaigns } from './campaigns.service';

export const campaignsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '',
    {
      config: { access: 'customer' },
      schema: { tags: ['campaigns'], summary: 'Campaigns, newest first', response: { 200: campaignList } },
    },
    async (request) => listCampaigns(db, authed(request).user.id),
  );
};
