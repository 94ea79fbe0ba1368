import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import type { BotConfigSaved } from './save-bot-config';
import { useBotConfigStored } from './save-bot-config';

/** One rule removed at once. */
export function deleteAutoReply(id: string): Promise<BotConfigSaved> {
  return api.delete<BotConfigSaved>(`/api/bot-config/auto-replies/${encodeURIComponent(id)}`);
}

export function useDeleteAutoReply() {
  return useMutation({ mutationFn: deleteAutoReply, onSuccess: useBotConfigStored() });
}
