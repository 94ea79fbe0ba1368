import {
  type AutoReply,
  type AutoReplyButtonDraft,
  type AutoReplyDraft,
  type AutoReplyInput,
  type AutoReplyRule,
  type AutoReplyType,
  type BotButton,
  type BotConfig,
  type BotConfigInput,
  botButtonTypeLabels,
  DEFAULT_AI_MODEL,
} from '../../../contract/bot';
import { countLabel } from '../../../contract/plural';
import { normalizeForMatch } from '../../../contract/text-match';
import { newRowKey, sendsAiEnabled } from './bot-config-form';

/**
 * Texts of 'Mensagens Automáticas WhatsApp' (SPEC §8) that the contract's `botMsg` does not carry.
 * Adds, removals and pauses stay in the browser until 'Salvar Configurações' (SPEC §4), so their
 * toasts say so instead of SPEC §8's 'Mensagem adicionada com sucesso.', which read as kept.
 */
export const autoMessagesMsg = {
  saved: 'Mensagens do bot atualizadas com sucesso.',
  saveError: 'Erro ao atualizar configurações. Tente novamente.',
  /** Title of the toasts of a local change (neutral, not 'Sucesso!'). */
  unsavedTitle: 'Alteração não salva',
  added: 'Mensagem adicionada — clique em Salvar Configurações para manter.',
  removed: 'Mensagem removida — clique em Salvar Configurações para confirmar.',
  samplesAdded: 'Mensagens de exemplo adicionadas — revise e clique em Salvar Configurações para manter.',
  discarded: 'Alterações descartadas.',
} as const;

/** How many rules the Chatbot page lists before '+N respostas adicionais' (SPEC §9). */
export const BOT_REPLIES_PREVIEW = 3;

/** One rule as the manager keeps it until 'Salvar Configurações'; `id` is null for a rule not saved yet. */
export interface ManagedReply {
  key: string;
  id: string | null;
  trigger: string;
  response: string;
  type: AutoReplyType;
  buttons: BotButton[];
  imageUrl: string;
  isActive: boolean;
}

export function managedFromConfig(replies: readonly AutoReply[]): ManagedReply[] {
  return replies.map((r) => ({
    key: `saved-${r.id}`,
    id: r.id,
    trigger: r.trigger || r.keyword,
    response: r.response,
    type: r.type,
    buttons: r.buttons.map((b) => ({ ...b })),
    imageUrl: r.imageUrl,
    isActive: r.isActive,
  }));
}

/** A rule in the manager's shape of SPEC §3: trigger, response, type, buttons, imageUrl (empty if none), isActive. */
export function toAutoReplyInput(r: ManagedReply): AutoReplyInput {
  const withButtons = r.type !== 'text';
  return {
    ...(r.id ? { id: r.id } : {}),
    trigger: r.trigger,
    response: r.response,
    type: r.type,
    buttons: withButtons ? r.buttons.map((b) => ({ id: b.id, text: b.text, type: b.type, value: b.value })) : [],
    imageUrl: r.type === 'image' ? r.imageUrl : '',
    isActive: r.isActive,
  };
}

/**
 * 'Salvar Configurações': the config as the server has it now, with the rules replaced by the
 * manager's list (the config is saved whole, SPEC §3).
 */
export function managerPayload(config: BotConfig, replies: readonly ManagedReply[]): BotConfigInput {
  return {
    isEnabled: config.isEnabled,
    welcomeMessage: config.welcomeMessage,
    autoReplies: replies.map(toAutoReplyInput),
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

/** Whether two lists would save the same rules (the local keys do not count). */
export function sameReplies(a: readonly ManagedReply[], b: readonly ManagedReply[]): boolean {
  if (a.length !== b.length) return false;
  return JSON.stringify(a.map(toAutoReplyInput)) === JSON.stringify(b.map(toAutoReplyInput));
}

export function toggleReplyActive(list: readonly ManagedReply[], key: string): ManagedReply[] {
  return list.map((r) => (r.key === key ? { ...r, isActive: !r.isActive } : r));
}

export function removeReply(list: readonly ManagedReply[], key: string): ManagedReply[] {
  return list.filter((r) => r.key !== key);
}

/** 'Criar Nova Mensagem Automática' starts empty, as a text rule; its checks are the contract's `autoReplyForm`. */
export const emptyNewMessage: AutoReplyDraft = { trigger: '', type: 'text', response: '', imageUrl: '', buttons: [] };

/** Its 'add button' row starts empty, as a quick reply; its checks are the contract's `autoReplyButtonForm`. */
export const emptyButtonDraft: AutoReplyButtonDraft = { text: '', type: 'quick_reply', value: '' };

function isDuplicate(trigger: string, list: readonly ManagedReply[]): boolean {
  const key = normalizeForMatch(trigger);
  return list.some((r) => normalizeForMatch(r.trigger) === key);
}

/** A rule the new-message form accepted, as a new active rule of the manager's list (no id until saved). */
export function newManagedReply(rule: AutoReplyRule): ManagedReply {
  return {
    key: newRowKey('new'),
    id: null,
    trigger: rule.trigger,
    response: rule.response,
    type: rule.type,
    buttons: rule.buttons,
    imageUrl: rule.imageUrl,
    isActive: true,
  };
}

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

/** The sample messages as local rules, leaving out any whose keyword the list already uses. */
export function sampleRepliesToAdd(samples: readonly AutoReplyInput[], list: readonly ManagedReply[]): ManagedReply[] {
  const added: ManagedReply[] = [];
  for (const s of samples) {
    const trigger = (s.trigger ?? s.keyword ?? '').trim();
    if (!trigger || isDuplicate(trigger, [...list, ...added])) continue;
    added.push({
      key: newRowKey('sample'),
      id: null,
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
