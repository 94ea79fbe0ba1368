import {
  type AutoReply,
  type AutoReplyButtonDraft,
  type AutoReplyDraft,
  type AutoReplyInput,
  type AutoReplyRuleInput,
  type BotButton,
  type BotConfig,
  type BotConfigInput,
  botButtonTypeLabels,
  DEFAULT_AI_MODEL,
} from '#contract/bot';
import { countLabel } from '#contract/plural';
import { normalizeForMatch } from '#contract/text-match';
import { sendsAiEnabled } from './bot-config-form';

/**
 * Texts of 'Mensagens Automáticas WhatsApp' (SPEC §8) that the contract's `botMsg` does not carry.
 * Each add, edit, pause and delete is kept at once (docs/decisions/025-working-from-a-phone.md): the
 * success toasts are the server's ('Mensagem adicionada com sucesso.'); these are the fallbacks.
 */
export const autoMessagesMsg = {
  saved: 'Mensagens do bot atualizadas com sucesso.',
  saveError: 'Erro ao atualizar configurações. Tente novamente.',
  addError: 'Erro ao adicionar mensagem. Tente novamente.',
  updateError: 'Erro ao atualizar mensagem. Tente novamente.',
  deleteError: 'Erro ao excluir mensagem. Tente novamente.',
} as const;

/** How many rules the Chatbot page lists before '+N respostas adicionais' (SPEC §9). */
export const BOT_REPLIES_PREVIEW = 3;

/** A stored rule in the manager's shape of SPEC §3, as `PUT /api/bot-config/auto-replies/{id}` takes it. */
export function ruleInput(r: AutoReply): AutoReplyRuleInput {
  const withButtons = r.type === 'interactive' || r.type === 'image';
  return {
    trigger: r.trigger || r.keyword,
    response: r.response,
    type: r.type,
    buttons: withButtons ? r.buttons.map((b) => ({ id: b.id, text: b.text, type: b.type, value: b.value })) : [],
    imageUrl: r.type === 'image' ? r.imageUrl : '',
    // The new types' content, only where the rule has it (the spec's payload stays as it was).
    ...(r.mediaUrl ? { mediaUrl: r.mediaUrl } : {}),
    ...(r.location ? { location: { ...r.location } } : {}),
    ...(r.contactCard ? { contactCard: { ...r.contactCard } } : {}),
    // The queue it hands conversations to (Filas) stays through an edit or a pause.
    ...(r.queueId ? { queueId: r.queueId } : {}),
    isActive: r.isActive,
  };
}

/** The same rule, paused or activated. */
export function toggledRuleInput(r: AutoReply): AutoReplyRuleInput {
  return { ...ruleInput(r), isActive: !r.isActive };
}

/** 'Editar Mensagem Automática' opens with the rule as stored. */
export function draftFromReply(r: AutoReply): AutoReplyDraft {
  return {
    trigger: r.trigger || r.keyword,
    type: r.type,
    response: r.response,
    imageUrl: r.type === 'image' ? r.imageUrl : '',
    buttons: r.type === 'interactive' || r.type === 'image' ? r.buttons.map((b) => ({ ...b })) : [],
    // The new types' fields only on rules of those types (the spec's rules open as they always did).
    ...(r.mediaUrl ? { mediaUrl: r.mediaUrl } : {}),
    ...(r.location
      ? {
          location: {
            latitude: String(r.location.latitude),
            longitude: String(r.location.longitude),
            name: r.location.name ?? '',
            address: r.location.address ?? '',
          },
        }
      : {}),
    ...(r.contactCard ? { contactCard: { name: r.contactCard.name, phone: r.contactCard.phone } } : {}),
    ...(r.queueId ? { queueId: r.queueId } : {}),
  };
}

/**
 * 'Usar mensagens de exemplo': the config as the server has it now, its rules kept (with their ids)
 * and the samples after them (the config is saved whole, SPEC §3).
 */
export function managerPayload(config: BotConfig, added: readonly AutoReplyInput[]): BotConfigInput {
  return {
    isEnabled: config.isEnabled,
    welcomeMessage: config.welcomeMessage,
    autoReplies: [...config.autoReplies.map((r) => ({ id: r.id, ...ruleInput(r) })), ...added],
    ...(sendsAiEnabled(config.aiEnabled, config) ? { aiEnabled: config.aiEnabled } : {}),
    aiModel: config.aiModel || DEFAULT_AI_MODEL,
    businessHours: {
      start: config.businessHours.start,
      end: config.businessHours.end,
      days: [...config.businessHours.days],
    },
    outOfHoursMessage: config.outOfHoursMessage,
    aiInstructions: config.aiInstructions,
    handoffMinutes: config.handoffMinutes,
  };
}

/** 'Criar Nova Mensagem Automática' starts empty, as a text rule; its checks are the contract's `autoReplyForm`. */
export const emptyNewMessage: AutoReplyDraft = { trigger: '', type: 'text', response: '', imageUrl: '', buttons: [] };

/** Its 'add button' row starts empty, as a quick reply; its checks are the contract's `autoReplyButtonForm`. */
export const emptyButtonDraft: AutoReplyButtonDraft = { text: '', type: 'quick_reply', value: '' };

/** 'Link → https://…', 'Telefone → 5511…', 'Resposta rápida → produtos'. */
export function buttonActionLabel(button: Pick<BotButton, 'type' | 'value'>): string {
  return `${botButtonTypeLabels[button.type]} → ${button.value}`;
}

/** '+N respostas adicionais' under the first rules of the Chatbot page; null when all are shown. */
export function moreRepliesText(total: number, shown: number = BOT_REPLIES_PREVIEW): string | null {
  const more = total - shown;
  if (more <= 0) return null;
  return `+${countLabel(more, 'resposta adicional', 'respostas adicionais')}`;
}

/** The sample messages to add, leaving out any whose keyword the account's rules already use. */
export function sampleRepliesToAdd(
  samples: readonly AutoReplyInput[],
  existing: readonly Pick<AutoReply, 'trigger'>[],
): AutoReplyInput[] {
  const taken = new Set(existing.map((r) => normalizeForMatch(r.trigger)));
  const added: AutoReplyInput[] = [];
  for (const s of samples) {
    const trigger = (s.trigger ?? s.keyword ?? '').trim();
    const key = normalizeForMatch(trigger);
    if (!trigger || taken.has(key)) continue;
    taken.add(key);
    added.push({
      trigger,
      response: s.response,
      type: s.type ?? 'text',
      buttons: (s.buttons ?? []).map((b, i) => ({
        id: b.id || `btn-${i + 1}`,
        text: b.text,
        type: b.type,
        value: b.value,
      })),
      imageUrl: s.imageUrl ?? '',
      isActive: s.isActive ?? true,
    });
  }
  return added;
}
