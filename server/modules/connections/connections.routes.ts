import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  connectionDetailResponse,
  connectionIdParams,
  connectionSavedResponse,
  connectionsMsg,
  connectionsResponse,
  createConnectionInput,
  updateConnectionInput,
} from '../../../contract/connections';
import { okResponse } from '../../../contract/responses';
import { connectWhatsappInput, connectWhatsappResponse, whatsappMsg } from '../../../contract/whatsapp-connection';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { DriverError } from '../../whatsapp/driver';
import { cloudApiSettingsOf } from '../whatsapp';
import {
  type ConnectionsDeps,
  connectNumber,
  createConnection,
  disconnectNumber,
  getConnection,
  listConnections,
  removeConnection,
  updateConnection,
} from './connections.service';

/** An account's WhatsApp numbers (contract/connections.ts): list, add, pair, label, default, pause, free, remove. */
export const connectionsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('connections', 'customer');
  const { db, connections, sending } = deps;
  const service: ConnectionsDeps = {
    db,
    connections,
    cloudSettings: cloudApiSettingsOf(deps, app.log),
    settingsChanged: sending.settingsChanged,
  };

  app.get('', spec("The account's WhatsApp numbers", { response: { 200: connectionsResponse } }), async (request) =>
    listConnections(service, authed(request).user),
  );

  app.post(
    '',
    spec('Add a number: a personal one to pair, or a Cloud API one (credentials checked against the Graph API)', {
      body: createConnectionInput,
      response: { 201: connectionSavedResponse },
    }),
    async (request, reply) => {
      const connection = await createConnection(service, authed(request).user, request.body);
      return reply.status(201).send({ success: true as const, message: connectionsMsg.created, connection });
    },
  );

  app.get(
    '/:id',
    spec('One number, with its QR code while a personal number is pairing', {
      params: connectionIdParams,
      response: { 200: connectionDetailResponse },
    }),
    async (request) => getConnection(service, authed(request).user.id, request.params.id),
  );

  app.post(
    '/:id/connect',
    spec('Start pairing a personal number (QR code, or a pairing code for phoneNumber)', {
      params: connectionIdParams,
      body: connectWhatsappInput,
      response: { 200: connectWhatsappResponse },
    }),
    async (request) => {
      try {
        const { pairingCode } = await connectNumber(
          service,
          authed(request).user.id,
          request.params.id,
          request.body?.phoneNumber,
        );
        return {
          success: true,
          message: pairingCode ? whatsappMsg.pairingStarted : connectionsMsg.connectStarted,
          pairingCode: pairingCode ?? null,
        };
      } catch (err) {
        if (err instanceof DriverError) throw new AppError('CONFLICT', whatsappMsg.connectFailed);
        throw err;
      }
    },
  );

  app.post(
    '/:id/disconnect',
    spec('Log a personal number out', { params: connectionIdParams, response: { 200: okResponse } }),
    async (request) => {
      await disconnectNumber(service, authed(request).user.id, request.params.id);
      return { success: true, message: connectionsMsg.disconnected };
    },
  );

  app.patch(
    '/:id',
    spec(
      "Change a number's label, make it the default, pause it, set its own sending settings, or clear a restriction WhatsApp lifted",
      { params: connectionIdParams, body: updateConnectionInput, response: { 200: connectionSavedResponse } },
    ),
    async (request) => ({
      success: true as const,
      message: request.body.clearRestriction ? connectionsMsg.restrictionCleared : connectionsMsg.updated,
      connection: await updateConnection(service, authed(request).user.id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    spec('Remove a number (its history stays in the reports)', {
      params: connectionIdParams,
      response: { 200: okResponse },
    }),
    async (request) => {
      await removeConnection(service, authed(request).user.id, request.params.id);
      return { success: true, message: connectionsMsg.removed };
    },
  );
};
