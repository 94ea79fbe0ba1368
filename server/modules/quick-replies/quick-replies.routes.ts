import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  quickRepliesMsg,
  quickReplyIdParams,
  quickReplyInput,
  quickReplyList,
  quickReplyMutationResponse,
  quickReplyQuery,
} from '../../../contract/quick-replies';
import { okResponse } from '../../../contract/responses';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import { createQuickReply, deleteQuickReply, listQuickReplies, updateQuickReply } from './quick-replies.service';

/** /api/quick-replies: the team's ready answers. Everyone uses them; the owner and managers keep them. */
export const quickRepliesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const spec = routeSpec('quick-replies', 'customer');

  app.get(
    '',
    spec(
      'The account’s quick replies by shortcut; `search` matches the start of a shortcut or a part of a text',
      { querystring: quickReplyQuery, response: { 200: quickReplyList } },
      forAgents,
    ),
    async (request) => ({ quickReplies: await listQuickReplies(db, authed(request).userId, request.query.search) }),
  );

  app.post(
    '',
    spec('Create a quick reply (a shortcut unique in the account)', {
      body: quickReplyInput,
      response: { 200: quickReplyMutationResponse },
    }),
    async (request) => ({
      success: true as const,
      message: quickRepliesMsg.created,
      quickReply: await createQuickReply(db, authed(request).userId, request.body),
    }),
  );

  app.put(
    '/:id',
    spec('Replace a quick reply', {
      params: quickReplyIdParams,
      body: quickReplyInput,
      response: { 200: quickReplyMutationResponse },
    }),
    async (request) => ({
      success: true as const,
      message: quickRepliesMsg.updated,
      quickReply: await updateQuickReply(db, authed(request).userId, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    spec('Delete a quick reply', { params: quickReplyIdParams, response: { 200: okResponse } }),
    async (request) => {
      await deleteQuickReply(db, authed(request).userId, request.params.id);
      return { success: true, message: quickRepliesMsg.deleted };
    },
  );
};
