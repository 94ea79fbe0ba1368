import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  conversationActionResponse,
  conversationDetailResponse,
  conversationListQuery,
  conversationListResponse,
  conversationMessagesQuery,
  conversationParams,
  conversationsMsg,
  conversationThreadQuery,
  sendConversationMessageInput,
} from '../../../contract/conversations';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { getConversation, listConversations, sendManualMessage, setConversationOwner } from './conversations.service';

export const conversationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('conversations', 'customer', 'agent');
  const { db } = deps;

  app.get(
    '',
    spec('Conversations by last activity, with unread counts', {
      querystring: conversationListQuery,
      response: { 200: conversationListResponse },
    }),
    async (request) => ({ conversations: await listConversations(db, authed(request).user.id, request.query) }),
  );

  app.get(
    '/:phone',
    spec("One conversation's messages (oldest first) with their delivery state; marks it read", {
      params: conversationParams,
      querystring: conversationMessagesQuery,
      response: { 200: conversationDetailResponse },
    }),
    async (request) => getConversation(deps, authed(request).user.id, request.params.phone, request.query),
  );

  app.post(
    '/:phone/messages',
    spec('Answer as a person: sends through WhatsApp and silences the bot for this contact', {
      params: conversationParams,
      querystring: conversationThreadQuery,
      body: sendConversationMessageInput,
      response: { 200: conversationActionResponse },
    }),
    async (request) => ({
      success: true as const,
      message: conversationsMsg.sent,
      conversation: await sendManualMessage(
        deps,
        authed(request).user.id,
        request.params.phone,
        request.body,
        request.query,
      ),
    }),
  );

  app.post(
    '/:phone/takeover',
    spec('Take the conversation over: the bot stops answering this contact for a while', {
      params: conversationParams,
      querystring: conversationThreadQuery,
      response: { 200: conversationActionResponse },
    }),
    async (request) => ({
      success: true as const,
      message: conversationsMsg.takenOver,
      conversation: await setConversationOwner(
        deps,
        authed(request).user.id,
        request.params.phone,
        true,
        request.query,
      ),
    }),
  );

  app.post(
    '/:phone/release',
    spec('Hand the conversation back to the bot', {
      params: conversationParams,
      querystring: conversationThreadQuery,
      response: { 200: conversationActionResponse },
    }),
    async (request) => ({
      success: true as const,
      message: conversationsMsg.released,
      conversation: await setConversationOwner(
        deps,
        authed(request).user.id,
        request.params.phone,
        false,
        request.query,
      ),
    }),
  );
};
