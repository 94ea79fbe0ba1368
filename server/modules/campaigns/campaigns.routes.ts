import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  audienceQuery,
  audienceSummary as audienceSummarySchema,
  campaignActionResponse,
  campaignIdParams,
  campaignList,
  campaignMsg,
  campaignNumbersResponse,
  campaignSchema,
  createCampaignBody,
  previewBody,
  previewResponse,
  recipientsExportQuery,
  recipientsPage,
  recipientsQuery,
  startForecastResponse,
  testCampaignBody,
  updateCampaignBody,
} from '../../../contract/campaigns';
import { okResponse } from '../../../contract/responses';
import type { AppDeps } from '../../deps';
import { sendTable } from '../../lib/download';
import { authed } from '../../plugins/access';
import type { AccountContext } from '../../plugins/account-context';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import {
  cancelCampaign,
  type LifecycleContext,
  pauseCampaign,
  resumeCampaign,
  startCampaign,
} from '../../sending/campaign-lifecycle';
import { addCampaign, copyCampaign } from './add-campaign';
import { audienceSummary } from './campaign-audience';
import { forecastCampaign, readForecastFacts } from './campaign-forecast';
import {
  campaignNumbers,
  deleteCampaign,
  type ForecastSource,
  forgetProgress,
  getCampaign,
  listCampaigns,
  listRecipients,
  updateCampaign,
} from './campaigns.service';
import { exportRecipients } from './export-recipients';
import { previewCampaign } from './preview-campaign';
import { sendTestMessage } from './send-test-message';

export const campaignsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('campaigns', 'customer');
  const { db, state, config } = deps;
  const campaignDeps = {
    db,
    savedMessage: deps.sending.savedMessage,
    outbound: { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE },
    fromLink: (userId: string, link: string) => deps.media.fromLink(userId, link),
  };
  // What a use case that records its events receives: this request's log.
  const recording = (log: FastifyBaseLogger) => ({ ...campaignDeps, log, announce: deps.announce });

  // What a running campaign's expected finish is forecast from, read when one has messages left.
  const pacing =
    (userId: string): ForecastSource =>
    () =>
      readForecastFacts(db, userId, config.WHATSAPP_CLOUD_THROUGHPUT);
  // Each status change goes through the campaign's lifecycle, which records its activity; the
  // campaign's cached counters are dropped once it commits.
  const lifecycle = (log: FastifyBaseLogger): LifecycleContext => ({
    db,
    log,
    changed: (id) => forgetProgress(state, id),
  });
  const actionAnswer = async (userId: string, id: string, message: string) => ({
    success: true as const,
    message,
    campaign: await getCampaign(db, state, userId, id, pacing(userId)),
  });

  app.get(
    '',
    spec('Campaigns, newest first, with live progress', { response: { 200: campaignList } }, forAgents),
    async (request) => {
      const userId = authed(request).user.id;
      return listCampaigns(db, state, userId, pacing(userId));
    },
  );

  app.post(
    '',
    spec('Create a campaign (a draft, or scheduled when scheduledAt is in the future)', {
      body: createCampaignBody,
      response: { 200: campaignSchema },
    }),
    async (request) => addCampaign(recording(request.log), authed(request), request.body),
  );

  app.post(
    '/preview',
    spec('The message as three of the account’s contacts would get it, and who of the audience has no name', {
      body: previewBody,
      response: { 200: previewResponse },
    }),
    async (request) => previewCampaign(deps, authed(request), request.body),
  );

  app.get(
    '/:id',
    spec('One campaign', { params: campaignIdParams, response: { 200: campaignSchema } }, forAgents),
    async (request) => {
      const userId = authed(request).user.id;
      return getCampaign(db, state, userId, request.params.id, pacing(userId));
    },
  );

  app.put(
    '/:id',
    spec('Edit a campaign while it is a draft or scheduled', {
      params: campaignIdParams,
      body: updateCampaignBody,
      response: { 200: campaignSchema },
    }),
    async (request) => updateCampaign(campaignDeps, authed(request).user.id, request.params.id, request.body),
  );

  app.delete(
    '/:id',
    spec('Delete a campaign (one that is going out is cancelled first)', {
      params: campaignIdParams,
      response: { 200: okResponse },
    }),
    async (request) => {
      await deleteCampaign(lifecycle(request.log), authed(request).user.id, request.params.id);
      return { success: true, message: campaignMsg.deleted };
    },
  );

  /** A campaign action: each status change goes through the lifecycle, which records its activity. */
  const action = (
    path: string,
    summary: string,
    run: (log: FastifyBaseLogger, ctx: AccountContext, id: string) => Promise<{ id?: string; message: string }>,
  ) =>
    app.post(
      `/:id/${path}`,
      spec(summary, { params: campaignIdParams, response: { 200: campaignActionResponse } }),
      async (request) => {
        const ctx = authed(request);
        const done = await run(request.log, ctx, request.params.id);
        return actionAnswer(ctx.userId, done.id ?? request.params.id, done.message);
      },
    );

  action('send', 'Start sending now (a draft or scheduled campaign)', async (log, ctx, id) => {
    await startCampaign(lifecycle(log), ctx.userId, id);
    return { message: campaignMsg.sent };
  });
  action('pause', 'Pause: nothing more goes out until resumed', async (log, ctx, id) => {
    await pauseCampaign(lifecycle(log), ctx.userId, id);
    return { message: campaignMsg.paused };
  });
  action('resume', 'Resume a paused campaign', async (log, ctx, id) => {
    await resumeCampaign(lifecycle(log), ctx.userId, id);
    return { message: campaignMsg.resumed };
  });
  action('cancel', 'Cancel: recipients not yet sent are skipped', async (log, ctx, id) => {
    await cancelCampaign(lifecycle(log), ctx.userId, id);
    return { message: campaignMsg.cancelled };
  });
  action('duplicate', 'Copy as a new draft', async (log, ctx, id) => {
    const copy = await copyCampaign(recording(log), ctx, id);
    return { id: copy.id, message: campaignMsg.duplicated };
  });

  app.post(
    '/:id/test',
    spec('Send the campaign’s message once to one number (default: the account’s own WhatsApp number)', {
      params: campaignIdParams,
      body: testCampaignBody,
      response: { 200: okResponse },
    }),
    async (request) => ({
      success: true as const,
      message: await sendTestMessage(deps, authed(request), {
        campaignId: request.params.id,
        phone: request.body?.phone,
      }),
    }),
  );

  app.get(
    '/:id/recipients',
    spec(
      'Per-recipient report, paged, optionally by status',
      {
        params: campaignIdParams,
        querystring: recipientsQuery,
        response: { 200: recipientsPage },
      },
      forAgents,
    ),
    async (request) => {
      return listRecipients(db, authed(request).user.id, request.params.id, request.query);
    },
  );

  app.get(
    '/:id/numbers',
    spec(
      'Progress and delivery per number that sends the campaign',
      {
        params: campaignIdParams,
        response: { 200: campaignNumbersResponse },
      },
      forAgents,
    ),
    async (request) => campaignNumbers(db, state, authed(request).user.id, request.params.id),
  );

  app.get(
    '/:id/recipients/export',
    spec(
      'Per-recipient report as CSV or XLSX',
      { params: campaignIdParams, querystring: recipientsExportQuery },
      forAgents,
    ),
    async (request, reply) => {
      const { format, status } = request.query;
      const { table, filename } = await exportRecipients(recording(request.log), authed(request), {
        campaignId: request.params.id,
        format,
        status,
      });
      return sendTable(reply, { table, format, filename, sheet: 'Destinatários' });
    },
  );

  app.get(
    '/audience',
    spec('How many recipients a campaign with this audience would have if it started now, and who would be skipped', {
      querystring: audienceQuery,
      response: { 200: audienceSummarySchema },
    }),
    async (request) => {
      const { targetType, groups, tags: targetTags } = request.query;
      return audienceSummary(db, authed(request).user, { targetType, targetGroups: groups, targetTags });
    },
  );

  app.get(
    '/:id/forecast',
    spec(
      'Who a start now would send the campaign to, and when the last message should go out by the pace, daily limit and business hours',
      { params: campaignIdParams, response: { 200: startForecastResponse } },
      forAgents,
    ),
    async (request) => {
      const { user } = authed(request);
      const campaign = await getCampaign(db, state, user.id, request.params.id);
      const audience = await audienceSummary(db, user, {
        targetType: campaign.targetType,
        targetGroups: campaign.targetGroups,
        targetTags: campaign.targetTags ?? [],
      });
      const facts = await readForecastFacts(db, user.id, config.WHATSAPP_CLOUD_THROUGHPUT);
      const forecast = forecastCampaign(facts, {
        recipients: audience.recipients,
        connectionIds: campaign.connectionIds,
      });
      return { audience, forecast };
    },
  );
};
