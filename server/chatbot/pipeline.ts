import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { whatsappInboundMessages } from '../db/schema';
import type { Driver, InboundMessage, WhatsappSubscriber } from '../whatsapp/driver';
import { optOutStep } from './opt-out';

export interface ChatbotDeps {
  db: Db;
  log: FastifyBaseLogger;
  /** Tells the contacts module that an account's contacts changed (its cached figures and index). */
  contactsChanged: (userId: string) => void;
}

export interface InboundContext extends ChatbotDeps {
  userId: string;
  message: InboundMessage;
  driver: Driver;
}

/** One step of the reply pipeline: 'stop' when it has dealt with the message. */
export type InboundStep = (ctx: InboundContext) => Promise<'continue' | 'stop'>;

/** Every inbound message passes these, in order (DESIGN §3, chatbot). */
const STEPS: InboundStep[] = [optOutStep];

/** Records an inbound message once (by provider id); answers false for a repeated delivery. */
export async function recordInbound(
  db: Db,
  userId: string,
  channel: Driver['kind'],
  message: InboundMessage,
): Promise<boolean> {
  const inserted = await db
    .insert(whatsappInboundMessages)
    .values({
      userId,
      channel,
      fromPhone: message.from,
      text: message.text,
      buttonId: message.buttonId ?? null,
      providerMessageId: message.providerMessageId,
      receivedAt: message.timestamp,
    })
    .onConflictDoNothing()
    .returning({ id: whatsappInboundMessages.id });
  return inserted.length > 0;
}

/**
 * The chatbot's subscription to the WhatsApp layer: each new inbound message, from any driver, is
 * recorded and then passes the steps in order until one deals with it.
 */
export function chatbotSubscriber(deps: ChatbotDeps): WhatsappSubscriber {
  return {
    inbound: async ({ userId, message, driver }) => {
      try {
        if (!(await recordInbound(deps.db, userId, driver.kind, message))) return;
      } catch (err) {
        deps.log.error({ err }, 'could not record an inbound WhatsApp message');
        return;
      }
      const ctx: InboundContext = { ...deps, userId, message, driver };
      for (const step of STEPS) {
        try {
          if ((await step(ctx)) === 'stop') return;
        } catch (err) {
          deps.log.error({ err, step: step.name }, 'an inbound message step failed');
          return;
        }
      }
    },
  };
}
