import { notificationLinks, notificationMsg } from '../../contract/notifications';
import { formatPhone } from '../../contract/phone';
import { saoPauloDay } from '../../contract/sao-paulo-time';
import { businessWindow } from '../../contract/sending-time';
import { notify } from '../records/notify';
import type { StoredRule } from './bot-setup';
import { markOutOfHoursSent, recentMessages, setTakenOver } from './conversations';
import { asksForPerson } from './matcher';
import type { InboundContext, InboundStep, ReplyContent } from './pipeline';

const HOUR = 60 * 60_000;
/** A conversation is new after 24 h of silence (and gets the welcome message again). */
const NEW_CONVERSATION_MS = 24 * HOUR;
export const HANDOFF_REPLY =
  'Certo! Vou chamar um atendente para continuar esta conversa. Aguarde um momento, por favor.';
const AI_HISTORY = 10;

const ruleContent = (rule: StoredRule): ReplyContent => {
  if (rule.type === 'document' || rule.type === 'audio' || rule.type === 'video')
    return { text: rule.response, mediaUrl: rule.mediaUrl, buttons: [] };
  if (rule.type === 'location') return { text: rule.response, location: rule.location, buttons: [] };
  if (rule.type === 'contact') return { text: rule.response, contactCard: rule.contactCard, buttons: [] };
  return {
    text: rule.response,
    imageUrl: rule.type === 'image' ? rule.imageUrl : undefined,
    buttons: rule.type === 'text' ? [] : rule.buttons,
  };
};

/** 2. A conversation a person has taken over gets no automatic reply. */
const takenOverStep: InboundStep = async (ctx) => {
  const until = ctx.conversation.takenOverUntil;
  if (!until || until <= ctx.now) return 'continue';
  await ctx.event('taken_over');
  return 'stop';
};

/** 3. A disabled bot does not answer. */
const disabledStep: InboundStep = async (ctx) => {
  if (ctx.setup.isEnabled) return 'continue';
  await ctx.event('disabled');
  return 'stop';
};

/**
 * 4. Outside business hours, with an out-of-hours message configured: sent at most once per contact
 * per São Paulo day, and nothing else is answered. Without one, the bot answers at any hour.
 */
const outOfHoursStep: InboundStep = async (ctx) => {
  const text = ctx.setup.outOfHoursMessage.trim();
  if (!text) return 'continue';
  const { open } = businessWindow({ ...ctx.setup.hours, respectBusinessHours: true }, ctx.now);
  if (open) return 'continue';
  const today = saoPauloDay(ctx.now);
  if (ctx.conversation.outOfHoursDay === today) return 'stop';
  if (await ctx.reply({ text }, 'out_of_hours'))
    await markOutOfHoursSent(ctx.db, ctx.userId, ctx.message.from, ctx.connectionId, today);
  return 'stop';
};

/** A button press (a Cloud reply button, or "2" / the button's text on a numbered menu). */
async function buttonStep(ctx: InboundContext): Promise<'replied' | 'none'> {
  const id = ctx.message.buttonId;
  if (!id) return 'none';
  if (id.startsWith('url:')) {
    await ctx.reply({ text: `🔗 ${id.slice(4)}` }, 'auto_reply', 'button:url');
    return 'replied';
  }
  if (id.startsWith('tel:')) {
    await ctx.reply({ text: `📞 ${formatPhone(id.slice(4))}` }, 'auto_reply', 'button:phone');
    return 'replied';
  }
  const keyword = id.startsWith('kw:') ? id.slice(3) : ctx.message.text;
  const rule = ctx.setup.matcher.match(keyword);
  if (!rule) return 'none';
  await ctx.reply(ruleContent(rule), 'auto_reply', rule.trigger);
  return 'replied';
}

/**
 * 5–8. Welcome for a new conversation, then a button press or the keyword rules, a request for a
 * person, and the AI when enabled. A new conversation that matched nothing has had its answer: the
 * welcome.
 */
const replyStep: InboundStep = async (ctx) => {
  const { setup, conversation, message, now } = ctx;
  const previous = conversation.previousInboundAt;
  const isNew = !previous || now.getTime() - previous.getTime() > NEW_CONVERSATION_MS;
  let welcomed = false;
  if (isNew && setup.welcomeMessage.trim()) {
    welcomed = await ctx.reply({ text: setup.welcomeMessage.trim() }, 'welcome');
  }
  if ((await buttonStep(ctx)) === 'replied') return 'stop';
  // A file, a location or a contact card matches no keyword and is not a question for the AI: it
  // had the welcome when it opened a conversation, and waits for a person otherwise.
  if (!message.text.trim() || message.media || message.location || message.contactCard) {
    if (!welcomed) await ctx.event('no_match');
    return 'stop';
  }
  const rule = setup.matcher.match(message.text);
  if (rule) {
    await ctx.reply(ruleContent(rule), 'auto_reply', rule.trigger);
    return 'stop';
  }
  if (asksForPerson(message.text)) {
    await handOff(ctx, 'contact');
    return 'stop';
  }
  if (welcomed) return 'stop';
  if (setup.aiEnabled && ctx.ai.available) {
    // The message being answered joins its conversation after the steps, so it is added here.
    const history = [
      ...(await recentMessages(ctx.db, ctx.userId, message.from, ctx.connectionId, AI_HISTORY - 1)),
      { direction: 'in' as const, text: message.text },
    ];
    const answer = await ctx.outside(() =>
      ctx.ai.reply({
        model: setup.aiModel,
        businessName: setup.businessName,
        instructions: setup.aiInstructions,
        rules: setup.rules.filter((r) => r.isActive),
        history,
      }),
    );
    if (!answer) {
      await ctx.event('ai_failed');
    } else if ('handoff' in answer) {
      await handOff(ctx, 'ai');
      return 'stop';
    } else {
      await ctx.reply({ text: answer.text }, 'ai_reply');
      return 'stop';
    }
  }
  await ctx.event('no_match');
  return 'stop';
};

/**
 * Hands the conversation to a person: the bot is silent with this contact for the configured time,
 * and the account is notified (the bell) so someone answers.
 */
async function handOff(ctx: InboundContext, why: 'contact' | 'ai'): Promise<void> {
  const until = new Date(ctx.now.getTime() + ctx.setup.handoffMinutes * 60_000);
  await setTakenOver(ctx.db, ctx.userId, ctx.message.from, ctx.connectionId, until);
  await ctx.reply({ text: HANDOFF_REPLY }, 'handoff', why);
  const phone = formatPhone(ctx.message.from);
  const name = ctx.conversation.name;
  const who = name && !name.startsWith('+') ? `${name} (${phone})` : phone;
  await notify(ctx.db, ctx.log, ctx.userId, {
    kind: 'conversation_handoff',
    title: notificationMsg.handoff.title,
    body: why === 'contact' ? notificationMsg.handoff.contact(who) : notificationMsg.handoff.ai(who),
    link: notificationLinks.conversation(ctx.message.from, ctx.connectionId),
  });
}

export const REPLY_STEPS: InboundStep[] = [takenOverStep, disabledStep, outOfHoursStep, replyStep];
