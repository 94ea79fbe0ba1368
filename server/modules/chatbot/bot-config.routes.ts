import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  autoReplyIdParams,
  autoReplyRuleInput,
  autoReplySavedResponse,
  botConfigInput,
  botConfigSavedResponse,
  botConfigSchema,
  botMsg,
} from '../../../contract/bot';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { recordActivity } from '../../records/activity';
import { addAutoReply, deleteAutoReply, getBotConfig, saveBotConfig, updateAutoReply } from './bot-config.service';

export const botConfigRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, chatbot, config }) => {
  const opts = () => ({
    aiAvailable: chatbot.ai.available,
    defaultModel: config.OPENAI_MODEL_DEFAULT,
    outbound: { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE },
  });

  app.get(
    '',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['chatbot'],
        summary: 'The bot config: welcome message, auto replies, AI, business hours (SPEC §3)',
        response: { 200: botConfigSchema },
      },
    },
    async (request) => getBotConfig(db, authed(request).user.id, opts()),
  );

  app.post(
    '',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['chatbot'],
        summary: 'Save the bot config whole; a field left out keeps its value, autoReplies replaces the rules',
        body: botConfigInput,
        response: { 200: botConfigSavedResponse },
      },
    },
    async (request) => {
      const { user, role } = authed(request);
      const userId = user.id;
      const config = await saveBotConfig(db, userId, request.body, { ...opts(), role });
      chatbot.configChanged(userId);
      await recordActivity(db, request.log, { userId, actorId: userId, kind: 'bot_changed' });
      return { success: true as const, message: botMsg.saved, config };
    },
  );

  /** After a rule changed on its own: the chatbot recompiles, the activity log says so. */
  const changed = async (request: FastifyRequest, userId: string) => {
    chatbot.configChanged(userId);
    await recordActivity(db, request.log, { userId, actorId: userId, kind: 'bot_changed' });
  };

  app.post(
    '/auto-replies',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['chatbot'],
        summary: 'Add one auto reply, kept at once (the manager’s add is one action)',
        body: autoReplyRuleInput,
        response: { 200: autoReplySavedResponse },
      },
    },
    async (request) => {
      const userId = authed(request).user.id;
      const saved = await addAutoReply(db, userId, request.body, opts());
      await changed(request, userId);
      return { success: true as const, message: botMsg.ruleAdded, ...saved };
    },
  );

  app.put(
    '/auto-replies/:id',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['chatbot'],
        summary: 'Replace one of the account’s auto replies (edit, pause, activate); another account’s id is 404',
        params: autoReplyIdParams,
        body: autoReplyRuleInput,
        response: { 200: autoReplySavedResponse },
      },
    },
    async (request) => {
      const userId = authed(request).user.id;
      const { onlyActiveChanged, ...saved } = await updateAutoReply(
        db,
        userId,
        request.params.id,
        request.body,
        opts(),
      );
      await changed(request, userId);
      const message = !onlyActiveChanged
        ? botMsg.ruleUpdated
        : saved.rule.isActive
          ? botMsg.ruleActivated
          : botMsg.rulePaused;
      return { success: true as const, message, ...saved };
    },
  );

  app.delete(
    '/auto-replies/:id',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['chatbot'],
        summary: 'Remove one of the account’s auto replies; another account’s id is 404',
        params: autoReplyIdParams,
        response: { 200: botConfigSavedResponse },
      },
    },
    async (request) => {
      const userId = authed(request).user.id;
      const config = await deleteAutoReply(db, userId, request.params.id, opts());
      await changed(request, userId);
      return { success: true as const, message: botMsg.ruleRemoved, config };
    },
  );
};
