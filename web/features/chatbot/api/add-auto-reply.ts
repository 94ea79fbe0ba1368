import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AutoReplyRuleInput, autoReplySavedResponse } from '#contract/bot';
import { api } from '#web/lib/api';
import { useBotConfigStored } from './save-bot-config';

export type AutoReplySaved = z.infer<typeof autoReplySavedResponse>;

/** One rule added and kept at once; 4xx carry a pt-BR message (a repeated keyword, say). */
export function addAutoReply(body: AutoReplyRuleInput): Promise<AutoReplySaved> {
  return api.post<AutoReplySaved>('/api/bot-config/auto-replies', body);
}

export function useAddAutoReply() {
  return useMutation({ mutationFn: addAutoReply, onSuccess: useBotConfigStored() });
}
