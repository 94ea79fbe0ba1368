import type { WhatsappSession } from '../../../../contract/whatsapp';
import { connectionView } from '../../../lib/queries/get-whatsapp-session';

/**
 * The first quick action of the dashboard, from the 2-second session poll: 'Conectar WhatsApp'
 * while disconnected (or not known yet); once connected, the number (or 'Detectando número...'
 * until WhatsApp reports it) with 'Desconectar'.
 */
export type WhatsappQuickAction = { kind: 'connect' } | { kind: 'connected'; label: string };

export function whatsappQuickAction(
  session: Pick<WhatsappSession, 'isConnected' | 'phoneNumber'> | null | undefined,
): WhatsappQuickAction {
  const view = connectionView(session);
  if (view === 'offline') return { kind: 'connect' };
  return {
    kind: 'connected',
    label: view === 'online' && session?.phoneNumber ? session.phoneNumber : 'Detectando número...',
  };
}
