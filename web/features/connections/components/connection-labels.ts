import type { ConnectionHealth, ConnectionKind, ConnectionStatus, ConnectionView } from '#contract/connections';

/** A number's health: its words and the colour of its dot and text (AA on white). */
export const HEALTH_LEVELS: Record<ConnectionHealth['level'], { label: string; dot: string; text: string }> = {
  good: { label: 'Saudável', dot: 'bg-green-600', text: 'text-green-800' },
  warning: { label: 'Atenção', dot: 'bg-amber-500', text: 'text-amber-900' },
  restricted: { label: 'Restrito', dot: 'bg-red-600', text: 'text-red-800' },
};

export const KIND_LABELS: Record<ConnectionKind, string> = {
  personal: 'WhatsApp pessoal (QR code)',
  cloud: 'API oficial (Cloud API)',
};

/** Personal numbers that are not paired (nor pairing): 'Conectar' opens the QR code. */
export function needsPairing(status: ConnectionStatus): boolean {
  return status === 'disconnected' || status === 'logged_out';
}

/** Personal numbers on their way: 'Ver QR code' reopens the pairing. */
export function isPairing(status: ConnectionStatus): boolean {
  return status === 'connecting' || status === 'qr';
}

/** Restricted by WhatsApp: 'Liberar número' frees it when WhatsApp lifted the restriction early. */
export function canClearRestriction(connection: Pick<ConnectionView, 'status'>): boolean {
  return connection.status === 'restricted';
}

/** The contacts' signals against a number in the last 24 h, as the card lists them: only those above zero. */
export function healthSignals(
  health: ConnectionHealth,
): Array<{ key: 'blocks' | 'optOuts'; label: string; value: number }> {
  const all = [
    { key: 'blocks' as const, label: 'Bloqueios ou não entregues (24 h)', value: health.blocks ?? 0 },
    { key: 'optOuts' as const, label: 'Pedidos para sair (24 h)', value: health.optOuts ?? 0 },
  ];
  return all.filter((s) => s.value > 0);
}
