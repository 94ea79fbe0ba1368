import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assignConversationInput,
  conversationActionResponse,
  conversationDetailResponse,
  conversationListQuery,
  conversationListResponse,
  conversationMessagesQuery,
  conversationNoteInput,
  conversationNoteResponse,
  conversationParams,
  conversationStatusInput,
  conversationsMsg,
  conversationThreadQuery,
  sendConversationMessageInput,
} from '../../../contract/conversations';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import {
  addConversationNote,
  assertConversationVisible,
  assignConversation,
  getConversation,
  listConversations,
  sendManualMessage,
  setConversationOwner,
  setConversationStatus,
  statusMessage,
} from './conversations.service';

export const conversationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('conversations', 'customer', 'agent');
  const { db } = deps;

  // Every route of one conversation: an agent reaches only the conversations they may see.
  app.addHook('preHandler', async (request) => {
    const { phone } = (request.params ?? {}) as { phone?: string };
    if (!phone) return;
    const { connectionId } = (request.query ?? {}) as { connectionId?: string };
    await assertConversationVisible(db, authed(request), phone, { connectionId });
  });

  app.get(
    '',
    spec('Conversations by last activity, with unread counts; filtered by assignee (me, none, a member) and status', {
      querystring: conversationListQuery,
      response: { 200: conversationListResponse },
    }),
    async (request) => ({ conversations: await listConversations(db, authed(request), request.query) }),
  );

  app.get(
    '/:phone',
    spec("One conversation's messages (oldest first) with their delivery state; marks it read", {
      params: conversationParams,
      querystring: conversationMessagesQuery,
      response: { 200: conversationDetailResponse },
    }),
    async (request) =>
      getConversation(deps, authed(request).user.id, request.params.phone, request.query, authed(request).actorId),
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
        authed(request).actorId,
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

  app.post(
    '/:phone/assign',
    spec('Give the conversation to a member of the team (the owner included), or to nobody (null)', {
      params: conversationParams,
      querystring: conversationThreadQuery,
      body: assignConversationInput,
      response: { 200: conversationActionResponse },
    }),
    async (request) => {
      const conversation = await assignConversation(
        { ...deps, log: request.log },
        authed(request),
        request.params.phone,
        request.body.memberId,
        request.query,
      );
      return {
        success: true as const,
        message: conversation.assigneeName
          ? conversationsMsg.assigned(conversation.assigneeName)
          : conversationsMsg.unassigned,
        conversation,
      };
    },
  );

  app.post(
    '/:phone/status',
    spec('Mark the conversation open, pending or resolved (a new message from the contact reopens it)', {
      params: conversationParams,
      querystring: conversationThreadQuery,
      body: conversationStatusInput,
      response: { 200: conversationActionResponse },
    }),
    async (request) => ({
      success: true as const,
      message: statusMessage(request.body.status),
      conversation: await setConversationStatus(
        deps,
        authed(request).userId,
        request.params.phone,
        request.body.status,
        request.query,
      ),
    }),
  );

  app.post(
    '/:phone/notes',
    spec('An internal note in the thread, for the team only (never sent to WhatsApp); @Nome notifies that member', {
      params: conversationParams,
      querystring: conversationThreadQuery,
      body: conversationNoteInput,
      response: { 200: conversationNoteResponse },
    }),
    async (request) => ({
      success: true as const,
      message: conversationsMsg.noteAdded,
      ...(await addConversationNote(
        { ...deps, log: request.log },
        authed(request),
        request.params.phone,
        request.body.text,
        request.query,
      )),
    }),
  );
};
