import type { FastifyBaseLogger } from 'fastify';
import { OPT_OUT_CONFIRMATION } from '../../../contract/contacts';
import type { Db } from '../../db/client';
import type { ConnectionManager } from '../../whatsapp/manager';
import { isOptOutMessage, setContactOptOut } from './contacts.service';

/**
 * The first step every inbound message passes (DESIGN §3, chatbot): a contact who answers SAIR,
 * PARAR, STOP or CANCELAR is flagged as opted out, so campaigns skip it, and is told so once through
 * the driver the message came from. Messages in groups and numbers that are not contacts of the
 * account change nothing.
 */
export function registerOptOut(deps: { db: Db; connections: ConnectionManager; log: FastifyBaseLogger }): void {
  deps.connections.onInbound((userId, message, driver) => {
    if (message.groupId || !isOptOutMessage(message.text)) return;
    void (async () => {
      const flagged = await setContactOptOut(deps.db, userId, message.from);
      if (flagged) await driver.send(message.from, { kind: 'text', text: OPT_OUT_CONFIRMATION });
    })().catch((err) => deps.log.error({ err }, 'could not apply an opt-out'));
  });
}
