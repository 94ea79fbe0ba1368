import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { BotConfigInput, botConfigSavedResponse } from '../../../../contract/bot';
import { api } from '../../../lib/api';
import { botConfigQueryKey, metricsQueryKey } from '../../../lib/query-keys';

export type BotConfigSaved = z.infer<typeof botConfigSavedResponse>;

/** The config is saved whole (SPEC §3); a field left out keeps its stored value. 4xx carry a pt-BR message. */
export function saveBotConfig(body: BotConfigInput): Promise<BotConfigSaved> {
  return api.post<BotConfigSaved>('/api/bot-config', body);
}

export function useSaveBotConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBotConfig,
    onSuccess: (saved) => {
      // The answer is the stored config: show it at once, then refresh from the server anyway.
      if (saved?.config) queryClient.setQueryData(botConfigQueryKey, saved.config);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: botConfigQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
      ]);
    },
  });
}
