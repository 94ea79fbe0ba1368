import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { BotConfig, BotConfigInput, botConfigSavedResponse } from '#contract/bot';
import { api } from '#web/lib/api';
import { botConfigQueryKey, metricsQueryKey } from '#web/lib/query-keys';

export type BotConfigSaved = z.infer<typeof botConfigSavedResponse>;

/** The config is saved whole (SPEC §3); a field left out keeps its stored value. 4xx carry a pt-BR message. */
export function saveBotConfig(body: BotConfigInput): Promise<BotConfigSaved> {
  return api.post<BotConfigSaved>('/api/bot-config', body);
}

/**
 * After any write of the bot (the whole config or one rule): the answer carries the stored config,
 * shown at once, then refreshed from the server anyway.
 */
export function useBotConfigStored() {
  const queryClient = useQueryClient();
  return (saved: { config?: BotConfig } | undefined) => {
    if (saved?.config) queryClient.setQueryData(botConfigQueryKey, saved.config);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: botConfigQueryKey }),
      queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
    ]);
  };
}

export function useSaveBotConfig() {
  const stored = useBotConfigStored();
  return useMutation({ mutationFn: saveBotConfig, onSuccess: stored });
}
