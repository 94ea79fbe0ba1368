import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../contract/text';
import {
  businessConfigResponse,
  businessHealthQuery,
  businessHealthResponse,
  businessProfileResponse,
  businessTemplatesResponse,
  configureBusinessInput,
  configureBusinessResponse,
} from '../../../contract/whatsapp-business';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import type { CloudAccounts } from './business.service';

export const businessRoutes: FastifyPluginAsyncZod<AppDeps & { cloud: CloudAccounts }> = async (app, { cloud }) => {
  app.get(
    '/config',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['whatsapp-business'],
        summary: 'Saved Cloud API configuration (no secrets)',
        response: { 200: businessConfigResponse },
      },
    },
    async (request) => cloud.getConfig(authed(request).user.id),
  );

  app.post(
    '/configure',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['whatsapp-business'],
        summary: 'Validate the credentials against the Graph API and save them',
        body: configureBusinessInput,
        response: { 200: configureBusinessResponse },
      },
    },
    async (request) => cloud.configure(authed(request).user.id, request.body),
  );

  app.get(
    '/health',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['whatsapp-business'],
        summary: 'Whether the Cloud API answers with the saved credentials (polled every 10 s; ?fresh=1 re-checks)',
        querystring: businessHealthQuery,
        response: { 200: businessHealthResponse },
      },
    },
    async (request) => cloud.getHealth(authed(request).user.id, request.query.fresh !== undefined),
  );

  app.get(
    '/profile',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['whatsapp-business'],
        summary: 'Business profile from the Graph API',
        response: { 200: businessProfileResponse },
      },
    },
    async (request) => cloud.getProfile(authed(request).user.id),
  );

  app.get(
    '/templates',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['whatsapp-business'],
        summary: 'Message templates of the business account',
        response: { 200: businessTemplatesResponse },
      },
    },
    async (request) => cloud.listTemplates(authed(request).user.id),
  );

  // Meta calls these: public, identified by the account's webhook key, authenticated by the verify
  // token (GET) and the signature over the raw body (POST).
  await app.register(async (scope) => {
    const hook = scope.withTypeProvider<ZodTypeProvider>();
    hook.removeContentTypeParser('application/json');
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    hook.get(
      '/webhook/:accountKey',
      {
        config: { access: 'public' },
        schema: {
          tags: ['whatsapp-business'],
          summary: 'Webhook subscription check (hub.verify_token → hub.challenge)',
          params: z.object({ accountKey: text().max(64) }),
          querystring: z.record(text(), text().optional()),
        },
      },
      async (request, reply) =>
        reply.type('text/plain').send(await cloud.verifyWebhook(request.params.accountKey, request.query)),
    );

    hook.post(
      '/webhook/:accountKey',
      {
        config: { access: 'public' },
        bodyLimit: 1024 * 1024,
        schema: {
          tags: ['whatsapp-business'],
          summary: 'Webhook deliveries (X-Hub-Signature-256 over the raw body)',
          params: z.object({ accountKey: text().max(64) }),
          response: { 200: z.object({ success: z.boolean(), applied: z.number() }) },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['x-hub-signature-256'];
        const { applied } = await cloud.receiveWebhook(
          request.params.accountKey,
          raw,
          Array.isArray(signature) ? signature[0] : signature,
        );
        return { success: true, applied };
      },
    );
  });
};
