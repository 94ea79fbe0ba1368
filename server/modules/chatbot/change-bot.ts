import type { Role } from '../../../contract/auth';
import type { AutoReply, AutoReplyRule, BotConfig } from '../../../contract/bot';
import type { AccountContext } from '../../plugins/account-context';
import { type Recording, record } from '../../records/events';
import {
  addAutoReply,
  type BotConfigInput,
  deleteAutoReply,
  saveBotConfig,
  updateAutoReply,
} from './bot-config.service';

type RuleOpts = Parameters<typeof addAutoReply>[3];

/** After the bot changed: the activity log says so and every process's chatbot recompiles (record announces it). */
const changed = (deps: Recording, ctx: AccountContext) => record(deps.db, { kind: 'bot_changed', by: ctx }, deps);

/** Saves the bot config whole. */
export async function saveBot(
  deps: Recording,
  ctx: AccountContext,
  input: Parameters<typeof saveBotConfig>[2],
  opts: RuleOpts,
): Promise<BotConfig> {
  const config = await saveBotConfig(deps.db, ctx.userId, input, { ...opts, role: ctx.role as Role });
  await changed(deps, ctx);
  return config;
}

export async function addRule(deps: Recording, ctx: AccountContext, rule: AutoReplyRule, opts: RuleOpts) {
  const saved = await addAutoReply(deps.db, ctx.userId, rule, opts);
  await changed(deps, ctx);
  return saved;
}

export async function updateRule(
  deps: Recording,
  ctx: AccountContext,
  input: { id: string; rule: AutoReplyRule },
  opts: RuleOpts,
): Promise<{ rule: AutoReply; config: BotConfig; onlyActiveChanged: boolean }> {
  const saved = await updateAutoReply(deps.db, ctx.userId, input.id, input.rule, opts);
  await changed(deps, ctx);
  return saved;
}

export async function removeRule(deps: Recording, ctx: AccountContext, id: string, opts: RuleOpts): Promise<BotConfig> {
  const config = await deleteAutoReply(deps.db, ctx.userId, id, opts);
  await changed(deps, ctx);
  return config;
}

export type { BotConfigInput };
