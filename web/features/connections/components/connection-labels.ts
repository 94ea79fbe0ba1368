import type { ConnectionHealth, ConnectionKind, ConnectionStatus } from '../../../../contract/connections';

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
