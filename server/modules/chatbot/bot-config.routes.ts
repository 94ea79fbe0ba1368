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
import { routeSpec } from '../../plugins/route-spec';
import { getBotConfig } from './bot-config.service';
import { addRule, removeRule, saveBot, updateRule } from './change-bot';

export const botConfigRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('chatbot', 'customer');
  const { db, chatbot, config } = deps;
  const opts = () => ({
    aiAvailable: chatbot.ai.available,
    defaultModel: config.OPENAI_MODEL_DEFAULT,
    outbound: { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE },
    media: deps.media,
  });

  app.get(
    '',
    spec('The bot config: welcome message, auto replies, AI, business hours (SPEC §3)', {
      response: { 200: botConfigSchema },
    }),
    async (request) => getBotConfig(db, authed(request).user.id, opts()),
  );

  app.post(
    '',
    spec('Save the bot config whole; a field left out keeps its value, autoReplies replaces the rules', {
      body: botConfigInput,
      response: { 200: botConfigSavedResponse },
    }),
    async (request) => {
      const config = await saveBot({ ...deps, log: request.log }, authed(request), request.body, opts());
      return { success: true as const, message: botMsg.saved, config };
    },
  );

  app.post(
    '/auto-replies',
    spec('Add one auto reply, kept at once (the manager’s add is one action)', {
      body: autoReplyRuleInput,
      response: { 200: autoReplySavedResponse },
    }),
    async (request) => {
      const saved = await addRule({ ...deps, log: request.log }, authed(request), request.body, opts());
      return { success: true as const, message: botMsg.ruleAdded, ...saved };
    },
  );

  app.put(
    '/auto-replies/:id',
    spec('Replace one of the account’s auto replies (edit, pause, activate); another account’s id is 404', {
      params: autoReplyIdParams,
      body: autoReplyRuleInput,
      response: { 200: autoReplySavedResponse },
    }),
    async (request) => {
      const { onlyActiveChanged, ...saved } = await updateRule(
        { ...deps, log: request.log },
        authed(request),
        { id: request.params.id, rule: request.body },
        opts(),
      );
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
    spec('Remove one of the account’s auto replies; another account’s id is 404', {
      params: autoReplyIdParams,
      response: { 200: botConfigSavedResponse },
    }),
    async (request) => {
      const config = await removeRule({ ...deps, log: request.log }, authed(request), request.params.id, opts());
      return { success: true as const, message: botMsg.ruleRemoved, config };
    },
  );
};
