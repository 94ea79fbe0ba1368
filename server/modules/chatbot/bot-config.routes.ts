import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { botConfigInput, botConfigSavedResponse, botConfigSchema, botMsg } from '../../../contract/bot';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { recordActivity } from '../../records/activity';
import { getBotConfig, saveBotConfig } from './bot-config.service';

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
};
