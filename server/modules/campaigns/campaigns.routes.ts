import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ActivityKind } from '../../../contract/activity';
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
import { nameVariables, unknownVariable } from '../../../contract/personalize';
import { formatPhone } from '../../../contract/phone';
import { okResponse } from '../../../contract/responses';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { datedName, sendTable } from '../../lib/download';
import { normalizePhone } from '../../lib/phone';
import { authed } from '../../plugins/access';
import { recordActivity } from '../../records/activity';
import {
  cancelCampaign,
  type LifecycleContext,
  pauseCampaign,
  resumeCampaign,
  startCampaign,
} from '../../sending/campaign-lifecycle';
import { buildMessage, personalText } from '../../sending/content';
import { audienceSummary } from './campaign-audience';
import { forecastCampaign, readForecastFacts } from './campaign-forecast';
import {
  campaignNumbers,
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  type ForecastSource,
  forgetProgress,
  getCampaign,
  listCampaigns,
  listRecipients,
  namelessRecipients,
  recipientsTable,
  sampleRecipients,
  updateCampaign,
} from './campaigns.service';

const customer = { access: 'customer' } as const;
const tags = ['campaigns'];

export const campaignsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, state, drivers, config } = deps;
  const campaignDeps = {
    db,
    savedMessage: deps.sending.savedMessage,
    outbound: { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE },
  };

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
    {
      config: customer,
      schema: { tags, summary: 'Campaigns, newest first, with live progress', response: { 200: campaignList } },
    },
    async (request) => {
      const userId = authed(request).user.id;
      return listCampaigns(db, state, userId, pacing(userId));
    },
  );

  app.post(
    '',
    {
      config: customer,
      schema: {
        tags,
        summary: 'Create a campaign (a draft, or scheduled when scheduledAt is in the future)',
        body: createCampaignBody,
        response: { 200: campaignSchema },
      },
    },
    async (request) => {
      const userId = authed(request).user.id;
      const campaign = await createCampaign(campaignDeps, userId, request.body);
      await recordActivity(db, request.log, {
        userId,
        actorId: userId,
        kind: 'campaign_created',
        detail: campaign.name,
      });
      return campaign;
    },
  );

  app.post(
    '/preview',
    {
      config: customer,
      schema: {
        tags,
        summary: 'The message as three of the account’s contacts would get it, and who of the audience has no name',
        body: previewBody,
        response: { 200: previewResponse },
      },
    },
    async (request) => {
      const { message } = request.body;
      const unknown = unknownVariable(message);
      if (unknown) throw new AppError('VALIDATION', campaignMsg.unknownVariable(unknown));
      const { user } = authed(request);
      const userId = user.id;
      const sample = await sampleRecipients(db, userId, 3);
      // Only a message that writes the name needs to know who has none.
      const nameless =
        nameVariables(message).length > 0
          ? await namelessRecipients(db, state, user, request.body, 3)
          : { count: 0, phones: [] };
      return {
        previews: sample.map((c) => ({
          name: c.name,
          phone: formatPhone(c.phone),
          text: personalText(message, {
            recipient: c.phone.replace('+', ''),
            kind: 'contact',
            name: c.name,
            email: c.email,
          }),
        })),
        fallbackCount: nameless.count,
        fallbackExamples: nameless.phones.map(formatPhone),
      };
    },
  );

  app.get(
    '/:id',
    {
      config: customer,
      schema: { tags, summary: 'One campaign', params: campaignIdParams, response: { 200: campaignSchema } },
    },
    async (request) => {
      const userId = authed(request).user.id;
      return getCampaign(db, state, userId, request.params.id, pacing(userId));
    },
  );

  app.put(
    '/:id',
    {
      config: customer,
      schema: {
        tags,
        summary: 'Edit a campaign while it is a draft or scheduled',
        params: campaignIdParams,
        body: updateCampaignBody,
        response: { 200: campaignSchema },
      },
    },
    async (request) => updateCampaign(campaignDeps, authed(request).user.id, request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: customer,
      schema: {
        tags,
        summary: 'Delete a campaign (one that is going out is cancelled first)',
        params: campaignIdParams,
        response: { 200: okResponse },
      },
    },
    async (request) => {
      await deleteCampaign(lifecycle(request.log), authed(request).user.id, request.params.id);
      return { success: true, message: campaignMsg.deleted };
    },
  );

  /** A campaign action; `activity` is recorded here only for one that is not a status change (the lifecycle records those). */
  const action = (
    path: string,
    summary: string,
    activity: ActivityKind | null,
    run: (life: LifecycleContext, userId: string, id: string) => Promise<{ id?: string; message: string }>,
  ) =>
    app.post(
      `/:id/${path}`,
      {
        config: customer,
        schema: { tags, summary, params: campaignIdParams, response: { 200: campaignActionResponse } },
      },
      async (request) => {
        const userId = authed(request).user.id;
        const done = await run(lifecycle(request.log), userId, request.params.id);
        const answer = await actionAnswer(userId, done.id ?? request.params.id, done.message);
        if (activity) {
          await recordActivity(db, request.log, {
            userId,
            actorId: userId,
            kind: activity,
            detail: answer.campaign.name,
          });
        }
        return answer;
      },
    );

  action('send', 'Start sending now (a draft or scheduled campaign)', null, async (life, userId, id) => {
    await startCampaign(life, userId, id);
    return { message: campaignMsg.sent };
  });
  action('pause', 'Pause: nothing more goes out until resumed', null, async (life, userId, id) => {
    await pauseCampaign(life, userId, id);
    return { message: campaignMsg.paused };
  });
  action('resume', 'Resume a paused campaign', null, async (life, userId, id) => {
    await resumeCampaign(life, userId, id);
    return { message: campaignMsg.resumed };
  });
  action('cancel', 'Cancel: recipients not yet sent are skipped', null, async (life, userId, id) => {
    await cancelCampaign(life, userId, id);
    return { message: campaignMsg.cancelled };
  });
  action('duplicate', 'Copy as a new draft', 'campaign_created', async (_life, userId, id) => {
    const copy = await duplicateCampaign(db, userId, id);
    return { id: copy.id, message: campaignMsg.duplicated };
  });

  app.post(
    '/:id/test',
    {
      config: customer,
      schema: {
        tags,
        summary: 'Send the campaign’s message once to one number (default: the account’s own WhatsApp number)',
        params: campaignIdParams,
        body: testCampaignBody,
        response: { 200: okResponse },
      },
    },
    async (request) => {
      const { user } = authed(request);
      const campaign = await getCampaign(db, state, user.id, request.params.id);
      const driver = await drivers.get(user.id);
      if (!driver?.status().isConnected) throw new AppError('CONFLICT', campaignMsg.notConnected);
      const given = request.body?.phone?.trim();
      const raw = given || driver.status().phoneNumber || '';
      if (!raw) throw new AppError('VALIDATION', campaignMsg.testPhoneRequired);
      const phone = normalizePhone(raw);
      if (!phone) throw new AppError('VALIDATION', campaignMsg.invalidPhone);
      const recipient = phone.replace('+', '');
      const message = await buildMessage(
        {
          campaignId: campaign.id,
          message: campaign.message,
          imageUrl: campaign.imageUrl ?? null,
          templateName: campaign.templateName ?? null,
          templateLanguage: campaign.templateLanguage ?? null,
          templateVariables: campaign.templateVariables ?? [],
        },
        { recipient, kind: 'contact', name: user.name, email: user.email },
        {
          userId: user.id,
          cloud: driver.kind === 'cloud',
          loadImage: deps.sending.loadImage,
          byReference: driver.readsUploads,
        },
      );
      await driver.send(recipient, message);
      return { success: true, message: campaignMsg.testSent(formatPhone(phone)) };
    },
  );

  app.get(
    '/:id/recipients',
    {
      config: customer,
      schema: {
        tags,
        summary: 'Per-recipient report, paged, optionally by status',
        params: campaignIdParams,
        querystring: recipientsQuery,
        response: { 200: recipientsPage },
      },
    },
    async (request) => {
      return listRecipients(db, authed(request).user.id, request.params.id, request.query);
    },
  );

  app.get(
    '/:id/numbers',
    {
      config: customer,
      schema: {
        tags,
        summary: 'Progress and delivery per number that sends the campaign',
        params: campaignIdParams,
        response: { 200: campaignNumbersResponse },
      },
    },
    async (request) => campaignNumbers(db, state, authed(request).user.id, request.params.id),
  );

  app.get(
    '/:id/recipients/export',
    {
      config: customer,
      schema: {
        tags,
        summary: 'Per-recipient report as CSV or XLSX',
        params: campaignIdParams,
        querystring: recipientsExportQuery,
      },
    },
    async (request, reply) => {
      const { format, status } = request.query;
      const userId = authed(request).user.id;
      const { name, table } = await recipientsTable(db, userId, request.params.id, status);
      const filename = datedName(`relatorio-${name}`, format);
      await recordActivity(db, request.log, { userId, actorId: userId, kind: 'report_exported', detail: filename });
      return sendTable(reply, { table, format, filename, sheet: 'Destinatários' });
    },
  );

  app.get(
    '/audience',
    {
      config: customer,
      schema: {
        tags,
        summary:
          'How many recipients a campaign with this audience would have if it started now, and who would be skipped',
        querystring: audienceQuery,
        response: { 200: audienceSummarySchema },
      },
    },
    async (request) => {
      const { targetType, groups, tags: targetTags } = request.query;
      return audienceSummary(db, authed(request).user, { targetType, targetGroups: groups, targetTags });
    },
  );

  app.get(
    '/:id/forecast',
    {
      config: customer,
      schema: {
        tags,
        summary:
          'Who a start now would send the campaign to, and when the last message should go out by the pace, daily limit and business hours',
        params: campaignIdParams,
        response: { 200: startForecastResponse },
      },
    },
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
