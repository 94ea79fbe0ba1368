import { notificationLinks, notificationMsg } from '../../contract/notifications';
import { formatPhone } from '../../contract/phone';
import { saoPauloDay } from '../../contract/sao-paulo-time';
import { businessWindow } from '../../contract/sending-time';
import { notify } from '../records/notify';
import type { StoredRule } from './bot-setup';
import {
  type ConversationQueue,
  markOutOfHoursSent,
  moveToQueue,
  offerToQueue,
  recentMessages,
  setTakenOver,
} from './conversations';
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

/** Whether a queue with hours of its own is closed now (a queue without hours never is). */
export function queueClosed(queue: ConversationQueue, now: Date): boolean {
  if (!queue.hours) return false;
  const { open } = businessWindow(
    {
      respectBusinessHours: true,
      businessStart: queue.hours.start,
      businessEnd: queue.hours.end,
      businessDays: queue.hours.days,
    },
    now,
  );
  return !open;
}

/**
 * Sends a closed queue's out-of-hours message, at most once per contact per São Paulo day (the same
 * day mark as the bot's own notice: the contact hears one of them). Answers whether the queue is
 * closed with a message (sent now or earlier today).
 */
async function queueOutOfHours(ctx: InboundContext, queue: ConversationQueue): Promise<boolean> {
  const text = queue.outOfHoursMessage.trim();
  if (!text || !queueClosed(queue, ctx.now)) return false;
  const today = saoPauloDay(ctx.now);
  if (ctx.conversation.outOfHoursDay === today) return true;
  if (await ctx.reply({ text }, 'out_of_hours', 'queue'))
    await markOutOfHoursSent(ctx.db, ctx.userId, ctx.message.from, ctx.connectionId, today);
  ctx.conversation.outOfHoursDay = today;
  return true;
}

/**
 * 3. A conversation in a queue that is closed now, with an out-of-hours message: the contact gets
 * that message (once a day) and nothing else — the team answers when the queue opens. It goes
 * before the bot's own switch: the queue's hours are the team's, kept whether the bot is on or not.
 */
export const queueOutOfHoursStep: InboundStep = async (ctx) => {
  const queue = ctx.conversation.queue;
  if (!queue) return 'continue';
  return (await queueOutOfHours(ctx, queue)) ? 'stop' : 'continue';
};

/** 4. A disabled bot does not answer. */
const disabledStep: InboundStep = async (ctx) => {
  if (ctx.setup.isEnabled) return 'continue';
  await ctx.event('disabled');
  return 'stop';
};

/**
 * 5. Outside business hours, with an out-of-hours message configured: sent at most once per contact
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
  await answerRule(ctx, rule);
  return 'replied';
}

/** A rule's answer; a rule that names a queue then hands the conversation to that queue's people. */
async function answerRule(ctx: InboundContext, rule: StoredRule): Promise<void> {
  await ctx.reply(ruleContent(rule), 'auto_reply', rule.trigger);
  if (rule.queueId) await handOffToQueue(ctx, rule.queueId);
}

/**
 * 6–9. Welcome for a new conversation, then a button press or the keyword rules, a request for a
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
    await answerRule(ctx, rule);
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
  const who = contactLabel(ctx, true);
  await notify(ctx.db, ctx.log, ctx.userId, {
    kind: 'conversation_handoff',
    title: notificationMsg.handoff.title,
    body: why === 'contact' ? notificationMsg.handoff.contact(who) : notificationMsg.handoff.ai(who),
    link: notificationLinks.conversation(ctx.message.from, ctx.connectionId),
  });
  if (ctx.conversation.queue) await offerInTurn(ctx, ctx.conversation.queue);
}

/**
 * A rule's handoff to a queue: the bot is silent for the handoff time, the conversation moves to
 * the queue (the team sees it there), a round-robin queue gives it to its next person online, and a
 * queue closed now tells the contact when the team is back (its out-of-hours message, once a day).
 */
async function handOffToQueue(ctx: InboundContext, queueId: string): Promise<void> {
  const until = new Date(ctx.now.getTime() + ctx.setup.handoffMinutes * 60_000);
  await setTakenOver(ctx.db, ctx.userId, ctx.message.from, ctx.connectionId, until);
  const queue = await moveToQueue(ctx.db, ctx.userId, ctx.message.from, ctx.connectionId, queueId);
  if (!queue) return; // deleted since the rule was read: the conversation stays where it was
  ctx.conversation.queue = queue;
  const who = contactLabel(ctx, true);
  await notify(ctx.db, ctx.log, ctx.userId, {
    kind: 'conversation_handoff',
    title: notificationMsg.handoff.title,
    body: notificationMsg.handoff.contact(who),
    link: notificationLinks.conversation(ctx.message.from, ctx.connectionId),
  });
  await offerInTurn(ctx, queue);
  await queueOutOfHours(ctx, queue);
}

/** The contact as notifications name it: 'Ana (+55 11 …)' (`withPhone`) or 'Ana', the number without a name. */
function contactLabel(ctx: Pick<InboundContext, 'message' | 'conversation'>, withPhone: boolean): string {
  const phone = formatPhone(ctx.message.from);
  const name = ctx.conversation.name;
  if (!name || name.startsWith('+')) return phone;
  return withPhone ? `${name} (${phone})` : name;
}

/** A round-robin queue's conversation nobody has goes to its next person online, who is told. */
export async function offerInTurn(
  ctx: Pick<InboundContext, 'db' | 'log' | 'userId' | 'message' | 'connectionId' | 'now' | 'conversation'>,
  queue: ConversationQueue,
): Promise<void> {
  if (queue.assignment !== 'round_robin') return;
  const assignee = await offerToQueue(ctx.db, ctx.userId, ctx.message.from, ctx.connectionId, queue.id, ctx.now);
  if (!assignee) return;
  const who = contactLabel(ctx, false);
  await notify(ctx.db, ctx.log, assignee, {
    kind: 'conversation_assigned',
    title: notificationMsg.assigned.title,
    body: notificationMsg.assigned.body(who, null),
    link: notificationLinks.conversation(ctx.message.from, ctx.connectionId),
  });
}

export const REPLY_STEPS: InboundStep[] = [takenOverStep, queueOutOfHoursStep, disabledStep, outOfHoursStep, replyStep];
