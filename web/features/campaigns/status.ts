import type { BadgeTone } from '../../components/ui/badge';

/** Campaign status labels and colours (SPEC §4). Unknown statuses show the raw value. */
const STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  draft: { label: 'Rascunho', tone: 'neutral' },
  scheduled: { label: 'Agendada', tone: 'yellow' },
  sending: { label: 'Enviando', tone: 'blue' },
  in_progress: { label: 'Em andamento', tone: 'blue' },
  completed: { label: 'Concluída', tone: 'green' },
  failed: { label: 'Falhou', tone: 'red' },
};

export function campaignStatus(status: string): { label: string; tone: BadgeTone } {
  return Object.hasOwn(STATUS, status) ? STATUS[status] : { label: status, tone: 'outline' };
}

/** Delivery-rate colour (SPEC §9): 90 % or more green, 70 % or more yellow, else red. */
export function deliveryRateTone(rate: number): 'green' | 'yellow' | 'red' {
  if (rate >= 90) return 'green';
  if (rate >= 70) return 'yellow';
  return 'red';
}
