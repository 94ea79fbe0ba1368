import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okResponse } from '../../../contract/responses';
import { whatsappSessionResponse } from '../../../contract/whatsapp';
import {
  connectWhatsappInput,
  connectWhatsappResponse,
  SIMULATED_MEDIA_MAX_BASE64,
  simulateInboundInput,
  simulateInboundResponse,
  simulateRestrictionInput,
  simulateRestrictionResponse,
  simulatorOutboxResponse,
  whatsappChannelResponse,
} from '../../../contract/whatsapp-connection';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import {
  connectWhatsapp,
  disconnectWhatsapp,
  getWhatsappChannel,
  simulateInbound,
  simulateRestriction,
  simulatorOutbox,
} from './whatsapp.service';
import { getSessionStatus } from './whatsapp-use-cases';

const plainJson = () => (data: unknown) => JSON.stringify(data);

export const whatsappSessionRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('whatsapp', 'customer');
  const { connections, config, db, media } = deps;
  app.get(
    '/whatsapp-session',
    {
      // Any team member sees the number's state (the fast path applies the same rule).
      config: { access: 'customer', team: 'agent' },
      // Polled every 2 s by every signed-in browser: the answer is built in memory and serialised
      // without re-validation (the schema still documents it).
      serializerCompiler: plainJson,
      schema: {
        tags: ['whatsapp'],
        summary: 'WhatsApp connection state (polled)',
        response: { 200: whatsappSessionResponse },
      },
    },
    async (request) => getSessionStatus(deps, authed(request)),
  );

  app.post(
    '/whatsapp/connect',
    spec('Start pairing the personal number (QR code, or a pairing code for phoneNumber)', {
      body: connectWhatsappInput,
      response: { 200: connectWhatsappResponse },
    }),
    async (request) => connectWhatsapp(connections, authed(request).user.id, request.body),
  );

  app.post(
    '/whatsapp/disconnect',
    spec('Log the personal number out', { response: { 200: okResponse } }),
    async (request) => disconnectWhatsapp(connections, authed(request).user.id),
  );

  app.get(
    '/whatsapp/channel',
    spec(
      'Which channel sends for the account (personal number or Cloud API) and whether it is ready',
      { response: { 200: whatsappChannelResponse } },
      forAgents,
    ),
    async (request) => getWhatsappChannel(db, connections, authed(request).user.id),
  );

  if (config.WHATSAPP_DRIVER === 'simulator') {
    app.post(
      '/whatsapp/simulator/inbound',
      {
        ...spec(
          'Simulator only: a message arriving from a contact (text, a file as base64, a location, a contact card, a reaction)',
          { body: simulateInboundInput, response: { 200: simulateInboundResponse } },
        ),
        // A simulated file travels in the body: about 6 MB of it.
        bodyLimit: SIMULATED_MEDIA_MAX_BASE64 + 64 * 1024,
      },
      async (request) => simulateInbound(connections, media.store, authed(request).user.id, request.body),
    );
    app.post(
      '/whatsapp/simulator/restrict',
      spec('Simulator only: the number’s next send fails with a WhatsApp restriction (463 or 131048)', {
        body: simulateRestrictionInput,
        response: { 200: simulateRestrictionResponse },
      }),
      async (request) => simulateRestriction(connections, authed(request).user.id, request.body),
    );
    app.get(
      '/whatsapp/simulator/outbox',
      spec('Simulator only: the messages the simulated number sent, oldest first', {
        response: { 200: simulatorOutboxResponse },
      }),
      async (request) => simulatorOutbox(connections, authed(request).user.id),
    );
  }
};
