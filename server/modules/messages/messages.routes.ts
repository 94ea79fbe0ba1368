import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okResponse } from '../../../contract/responses';
import {
  savedMessageIdParams,
  savedMessageInput,
  savedMessageList,
  savedMessageMutationResponse,
  savedMessageSchema,
  savedMessagesMsg,
} from '../../../contract/saved-messages';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import {
  createSavedMessage,
  deleteSavedMessage,
  getSavedMessage,
  listSavedMessages,
  type SavedMessageDeps,
  updateSavedMessage,
} from './messages.service';

export const messagesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config, media }) => {
  const spec = routeSpec('messages', 'customer');
  const fileDeps: SavedMessageDeps = {
    outbound: { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE },
    fromLink: (userId, link) => media.fromLink(userId, link),
  };
  app.get(
    '',
    spec('Saved messages, newest first', { response: { 200: savedMessageList } }, forAgents),
    async (request) => listSavedMessages(db, authed(request).user.id),
  );

  app.get(
    '/:id',
    spec('One saved message', { params: savedMessageIdParams, response: { 200: savedMessageSchema } }, forAgents),
    async (request) => getSavedMessage(db, authed(request).user.id, request.params.id),
  );

  app.post(
    '',
    spec("Save a composed message ('Compor Nova Mensagem'); HTML is sanitised before it is stored", {
      body: savedMessageInput,
      response: { 200: savedMessageMutationResponse },
    }),
    async (request) => ({
      success: true as const,
      message: savedMessagesMsg.saved,
      savedMessage: await createSavedMessage(db, authed(request).user.id, request.body, fileDeps),
    }),
  );

  app.put(
    '/:id',
    spec('Replace a saved message', {
      params: savedMessageIdParams,
      body: savedMessageInput,
      response: { 200: savedMessageMutationResponse },
    }),
    async (request) => ({
      success: true as const,
      message: savedMessagesMsg.saved,
      savedMessage: await updateSavedMessage(db, authed(request).user.id, request.params.id, request.body, fileDeps),
    }),
  );

  app.delete(
    '/:id',
    spec('Delete a saved message', { params: savedMessageIdParams, response: { 200: okResponse } }),
    async (request) => {
      await deleteSavedMessage(db, authed(request).user.id, request.params.id);
      return { success: true, message: savedMessagesMsg.deleted };
    },
  );
};
