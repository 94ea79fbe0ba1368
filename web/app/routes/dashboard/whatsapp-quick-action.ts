import type { ConnectionView } from '#contract/connections';
import type { WhatsappSession } from '#contract/whatsapp';
import { connectionView } from '#web/lib/queries/get-whatsapp-session';

/**
 * The first quick action of the dashboard. With one number, from the 2-second session poll:
 * 'Conectar WhatsApp' while disconnected (or not known yet); once connected, the number (or
 * 'Detectando número...' until WhatsApp reports it) with 'Desconectar'. With several numbers it acts
 * on the one the person picks (`choose`: how many are connected, of how many), not on the default.
 */
export type WhatsappQuickAction =
  | { kind: 'connect' }
  | { kind: 'connected'; label: string }
  | { kind: 'choose'; connected: number; total: number };

export function whatsappQuickAction(
  session: Pick<WhatsappSession, 'isConnected' | 'phoneNumber'> | null | undefined,
  numbers?: readonly Pick<ConnectionView, 'status'>[],
): WhatsappQuickAction {
  if (numbers && numbers.length >= 2) {
    return { kind: 'choose', connected: numbers.filter((c) => c.status === 'connected').length, total: numbers.length };
  }
  const view = connectionView(session);
  if (view === 'offline') return { kind: 'connect' };
  return {
    kind: 'connected',
    label: view === 'online' && session?.phoneNumber ? session.phoneNumber : 'Detectando número...',
  };
}
