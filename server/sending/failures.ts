import { campaignMsg } from '../../contract/campaigns';
import { DriverError } from '../whatsapp/driver';

/**
 * What the send loop does with a failed send: try again later, give up on this recipient, hold it
 * back a day, or stop the whole campaign before the number is banned.
 */
export type FailureAction =
  | { action: 'retry'; reason: string; retryAfterMs?: number; restriction?: string }
  | { action: 'fail'; reason: string }
  | { action: 'defer'; reason: string; delayMs: number }
  | {
      action: 'pause';
      reason: string;
      /** A WhatsApp restriction of the number ('463', '131048', '131056') or its credentials refused ('auth'). */
      restriction?: string;
    }
  | { action: 'offline'; reason: string };

const DAY_MS = 86_400_000;

/** pt-BR reasons for the provider codes a customer may see on the report. */
const REASONS: Record<number, string> = {
  131026: 'Mensagem não entregue: o número não tem WhatsApp ou não pode receber esta mensagem.',
  131047:
    'Fora da janela de 24 horas: a API oficial só aceita modelos aprovados para quem não falou com você nas últimas 24 horas.',
  131049: 'A Meta limitou mensagens de marketing para este contato; nova tentativa em 24 horas.',
  131050: 'O contato pediu ao WhatsApp para não receber mensagens de marketing desta empresa.',
  131051: 'Tipo de mensagem não suportado.',
  131052: 'Não foi possível baixar a mídia da mensagem.',
  131053: 'Não foi possível enviar a mídia: formato ou tamanho não aceito.',
  130472: 'O número do contato faz parte de um experimento da Meta e não recebe mensagens de marketing.',
};

/**
 * The failures that say the contact cannot receive from the number: 131026 (undeliverable, which
 * includes a contact who blocked the business) and 131050 (the contact stopped marketing messages).
 * A row's `error` holds the pt-BR reason when the send was refused, or "<code> <title>" when a
 * Cloud API webhook reported the failure later (whatsapp/cloud-api/webhook.ts): the numbers' health
 * counts both.
 */
export const BLOCK_CODES = [131026, 131050] as const;
export const BLOCK_REASONS: readonly string[] = BLOCK_CODES.map((code) => REASONS[code]);

function templateReason(code: number, detail: string): string {
  return `Erro no modelo de mensagem (${code}): ${detail}`;
}

export function classifyFailure(err: unknown): FailureAction {
  if (!(err instanceof DriverError)) {
    return { action: 'retry', reason: (err as Error)?.message || 'Erro inesperado no envio' };
  }
  const code = typeof err.providerCode === 'number' ? err.providerCode : Number(err.providerCode);
  if (code === 131048) return { action: 'pause', reason: campaignMsg.pauseReason.spam, restriction: '131048' };
  if (code === 463) return { action: 'pause', reason: campaignMsg.pauseReason.timeLock, restriction: '463' };
  // A pair rate limit: retried later on a number alone; with other numbers, this one steps aside.
  if (code === 131056) {
    return {
      action: 'retry',
      reason: campaignMsg.reason.pairLimit,
      retryAfterMs: err.retryAfterMs,
      restriction: '131056',
    };
  }
  if (code === 131049) return { action: 'defer', reason: REASONS[131049], delayMs: DAY_MS };
  // The contact chose not to get marketing from the business: asking again changes nothing.
  if (code === 131050) return { action: 'fail', reason: REASONS[131050] };
  if (code >= 132000 && code < 133000) return { action: 'fail', reason: templateReason(code, err.message) };
  switch (err.kind) {
    case 'auth':
      return { action: 'pause', reason: campaignMsg.pauseReason.auth, restriction: 'auth' };
    case 'template_required':
      return { action: 'fail', reason: REASONS[131047] };
    case 'permanent':
      return { action: 'fail', reason: REASONS[code] ?? err.message };
    default:
      if (/desconectado/i.test(err.message)) return { action: 'offline', reason: err.message };
      return { action: 'retry', reason: err.message, retryAfterMs: err.retryAfterMs };
  }
}
