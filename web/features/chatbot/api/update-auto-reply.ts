import { useMutation } from '@tanstack/react-query';
import type { AutoReplyRuleInput } from '#contract/bot';
import { api } from '#web/lib/api';
import type { AutoReplySaved } from './add-auto-reply';
import { useBotConfigStored } from './save-bot-config';

/** One rule replaced whole (an edit, a pause, an activation) and kept at once; the answer says which. */
export function updateAutoReply({ id, rule }: { id: string; rule: AutoReplyRuleInput }): Promise<AutoReplySaved> {
  return api.put<AutoReplySaved>(`/api/bot-config/auto-replies/${encodeURIComponent(id)}`, rule);
}

export function useUpdateAutoReply() {
  return useMutation({ mutationFn: updateAutoReply, onSuccess: useBotConfigStored() });
}
