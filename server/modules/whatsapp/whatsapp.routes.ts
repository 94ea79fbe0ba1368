import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { whatsappSessionResponse } from '../../../contract/whatsapp';
import type { AppDeps } from '../../app';
import { authed } from '../../plugins/access';

const plainJson = () => (data: unknown) => JSON.stringify(data);

export const whatsappSessionRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { registry }) => {
  app.get(
    '/whatsapp-session',
    {
      // Polled every 2 s by every signed-in browser: the answer is built in memory and serialised
      // without re-validation (the schema still documents it).
      serializerCompiler: plainJson,
      schema: {
        tags: ['whatsapp'],
        summary: 'WhatsApp connection state (polled)',
        response: { 200: whatsappSessionResponse },
      },
    },
    async (request) => registry.status(authed(request).user),
  );
};
