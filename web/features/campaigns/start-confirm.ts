import { formatNumber } from '#contract/format';
import { formatPhone } from '#contract/phone';
import { countLabel } from '#contract/plural';
import type { SendForecast } from '#contract/send-forecast';
import { formatDateTime } from '#web/lib/format';

export interface StartConfirmInput {
  recipients: number;
  /** The number that will send, in any spelling; null when not known (not connected). */
  phoneNumber: string | null;
  channel: 'personal' | 'cloud';
  /** The campaign's chosen numbers ('Vendas (+55 11 98765-0000)'), when it has some: they replace `phoneNumber`. */
  numbers?: readonly string[];
  /** What the chosen numbers may still send today, all together (said when there are chosen numbers). */
  capacityToday?: number;
  forecast: SendForecast;
  dailyLimit: number;
  businessStart: string;
  businessEnd: string;
  now: Date;
}

export interface StartConfirmText {
  /** '57 destinatários pelo número +55 11 98765-0000, término previsto em ~3 min' */
  summary: string;
  /** Why it takes longer than the pace alone says, one sentence each. */
  notes: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/** 'em ~3 min', 'em ~2 h 10 min (hoje às 17:40)', 'amanhã às 09:40', 'em 20/01/2025 09:03'. */
export function finishPhrase(finishAt: Date | null, now: Date): string {
  if (!finishAt) return 'sem previsão de término: o horário comercial não tem dia nem hora de envio';
  const ms = finishAt.getTime() - now.getTime();
  if (ms < 60_000) return 'término previsto em menos de 1 min';
  const days = Math.round((dayStart(finishAt) - dayStart(now)) / 86_400_000);
  if (ms < 60 * 60_000) return `término previsto em ~${Math.ceil(ms / 60_000)} min`;
  if (days === 0) {
    const minutes = Math.round(ms / 60_000);
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    return `término previsto em ~${h} h${m ? ` ${m} min` : ''} (hoje às ${clock(finishAt)})`;
  }
  if (days === 1) return `término previsto amanhã às ${clock(finishAt)}`;
  return `término previsto em ${formatDateTime(finishAt)}`;
}

/** What the send confirmation says: how many, through which number, and when it should end. */
export function startConfirmText(input: StartConfirmInput): StartConfirmText {
  const who = countLabel(input.recipients, 'destinatário', 'destinatários');
  const numbers = input.numbers ?? [];
  const through =
    numbers.length > 0
      ? numbers.length === 1
        ? ` pelo número ${numbers[0]}`
        : ` pelos números ${numbers.slice(0, -1).join(', ')} e ${numbers[numbers.length - 1]}`
      : input.phoneNumber !== null
        ? ` pelo número ${formatPhone(input.phoneNumber)}`
        : input.channel === 'cloud'
          ? ' pela API oficial do WhatsApp Business'
          : ' pelo número pessoal';
  const notes: string[] = [];
  if (numbers.length > 0 && input.capacityToday !== undefined) {
    notes.push(`Capacidade hoje dos números escolhidos: ${countLabel(input.capacityToday, 'mensagem', 'mensagens')}.`);
  }
  if (input.forecast.waitsForBusinessHours) {
    notes.push(`Os envios acontecem só no horário comercial (${input.businessStart} às ${input.businessEnd}).`);
  }
  if (input.forecast.waitsForDailyLimit) {
    notes.push(
      `O limite diário de ${formatNumber(input.dailyLimit)} ${input.dailyLimit === 1 ? 'mensagem' : 'mensagens'} divide o envio em mais de um dia.`,
    );
  }
  return { summary: `${who}${through}, ${finishPhrase(input.forecast.finishAt, input.now)}`, notes };
}
