import type { FastifyBaseLogger } from 'fastify';
import type OpenAI from 'openai';
import { lazyModule } from '../lib/lazy-module';

/** The OpenAI client (~5 MB resident) loads when an account has a key. */
const loadOpenAi = lazyModule<typeof OpenAI>('openai');

/** What the AI answers when it cannot help; the pipeline then hands the conversation to a person. */
export const AI_HANDOFF_TOKEN = '[ATENDENTE]';

export interface AiRequest {
  model: string;
  businessName: string;
  instructions: string;
  rules: Array<{ trigger: string; response: string }>;
  history: Array<{ direction: 'in' | 'out'; text: string }>;
}

export interface AiResponder {
  readonly available: boolean;
  /** The reply text, `{ handoff: true }` when the AI says it cannot help, or null on timeout or error. */
  reply(request: AiRequest): Promise<{ text: string } | { handoff: true } | null>;
}

/** Rules shown to the AI: enough to know the business's answers without blowing the prompt up. */
const RULES_IN_PROMPT = 50;

export function systemPrompt(r: AiRequest): string {
  const lines = [
    `Você é o assistente virtual de atendimento de ${r.businessName || 'uma empresa'} no WhatsApp.`,
    'Responda em português do Brasil, de forma curta, cordial e objetiva (no máximo 3 parágrafos curtos).',
    'Não invente preços, prazos, políticas ou dados que não estejam nas informações abaixo.',
    `Se não souber responder, se o assunto exigir uma pessoa, ou se o cliente pedir um atendente, responda apenas ${AI_HANDOFF_TOKEN}.`,
  ];
  if (r.instructions.trim()) lines.push('', 'Sobre o negócio (escrito pela empresa):', r.instructions.trim());
  const rules = r.rules.slice(0, RULES_IN_PROMPT);
  if (rules.length) {
    lines.push('', 'Respostas prontas da empresa (palavra-chave → resposta):');
    for (const rule of rules) lines.push(`- ${rule.trigger} → ${rule.response.slice(0, 300)}`);
  }
  return lines.join('\n');
}

/**
 * Replies through an OpenAI-compatible chat-completions API (`OPENAI_BASE_URL` for any compatible
 * server). A timeout or an error is logged and answers null: no AI reply, never a crash.
 */
export class OpenAiResponder implements AiResponder {
  private readonly client: OpenAI | null;

  constructor(
    opts: { apiKey?: string; baseURL?: string; timeoutMs: number },
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = opts.apiKey
      ? new (loadOpenAi())({ apiKey: opts.apiKey, baseURL: opts.baseURL, timeout: opts.timeoutMs, maxRetries: 0 })
      : null;
  }

  get available(): boolean {
    return this.client !== null;
  }

  async reply(request: AiRequest): Promise<{ text: string } | { handoff: true } | null> {
    if (!this.client) return null;
    try {
      const completion = await this.client.chat.completions.create({
        model: request.model,
        temperature: 0.3,
        max_tokens: 500,
        messages: [
          { role: 'system', content: systemPrompt(request) },
          ...request.history.map((m) => ({
            role: m.direction === 'in' ? ('user' as const) : ('assistant' as const),
            content: m.text,
          })),
        ],
      });
      const text = completion.choices[0]?.message?.content?.trim() ?? '';
      if (!text) return null;
      if (text.includes(AI_HANDOFF_TOKEN)) return { handoff: true };
      return { text: text.slice(0, 4096) };
    } catch (err) {
      const e = err as { status?: number; name?: string; message?: string };
      this.log.warn({ status: e.status, error: e.name }, 'the AI reply failed');
      return null;
    }
  }
}
