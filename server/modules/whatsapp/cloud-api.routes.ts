import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  businessProfileResponse,
  cloudApiConfigResponse,
  cloudApiHealthQuery,
  cloudApiHealthResponse,
  cloudApiTemplatesResponse,
  configureCloudApiInput,
  configureCloudApiResponse,
} from '../../../contract/cloud-api';
import { text } from '../../../contract/text';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { cloudApiSettingsOf } from './cloud-api.service';
import { WEBHOOK_BODY_LIMIT } from './webhook.fast-path';
import { receiveCloudWebhook, verifyCloudWebhook } from './whatsapp-use-cases';

export const cloudApiRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('cloud-api', 'customer');
  const cloudSettings = cloudApiSettingsOf(deps, app.log);
  app.get(
    '/config',
    spec('Saved Cloud API configuration (no secrets)', { response: { 200: cloudApiConfigResponse } }),
    async (request) => cloudSettings.getConfig(authed(request).user.id),
  );

  app.post(
    '/configure',
    spec('Validate the credentials against the Graph API and save them', {
      body: configureCloudApiInput,
      response: { 200: configureCloudApiResponse },
    }),
    async (request) => cloudSettings.configure(authed(request).user.id, request.body),
  );

  app.get(
    '/health',
    spec('Whether the Cloud API answers with the saved credentials (polled every 10 s; ?fresh=1 re-checks)', {
      querystring: cloudApiHealthQuery,
      response: { 200: cloudApiHealthResponse },
    }),
    async (request) => cloudSettings.getHealth(authed(request).user.id, request.query.fresh !== undefined),
  );

  app.get(
    '/profile',
    spec('Business profile from the Graph API', { response: { 200: businessProfileResponse } }),
    async (request) => cloudSettings.getProfile(authed(request).user.id),
  );

  app.get(
    '/templates',
    spec('Message templates of the business account', { response: { 200: cloudApiTemplatesResponse } }),
    async (request) => cloudSettings.listTemplates(authed(request).user.id),
  );

  // Meta calls these: public, identified by the account's webhook key, authenticated by the verify
  // token (GET) and the signature over the raw body (POST).
  await app.register(async (scope) => {
    const spec = routeSpec('cloud-api', 'customer');
    const hook = scope.withTypeProvider<ZodTypeProvider>();
    hook.removeContentTypeParser('application/json');
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    hook.get(
      '/webhook/:accountKey',
      spec(
        'Webhook subscription check (hub.verify_token → hub.challenge)',
        { params: z.object({ accountKey: text().max(64) }), querystring: z.record(text(), text().optional()) },
        { access: 'public' },
      ),
      async (request, reply) =>
        reply
          .type('text/plain')
          .send(await verifyCloudWebhook(deps, { accountKey: request.params.accountKey, query: request.query })),
    );

    hook.post(
      '/webhook/:accountKey',
      {
        config: { access: 'public' },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        schema: {
          tags: ['cloud-api'],
          summary: 'Webhook deliveries (X-Hub-Signature-256 over the raw body)',
          params: z.object({ accountKey: text().max(64) }),
          response: { 200: z.object({ success: z.boolean(), applied: z.number() }) },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['x-hub-signature-256'];
        const { applied } = await receiveCloudWebhook(deps, {
          accountKey: request.params.accountKey,
          raw,
          signature: Array.isArray(signature) ? signature[0] : signature,
        });
        return { success: true, applied };
      },
    );
  });
};
