import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BotConfig } from '#contract/bot';
import { keyPathQueryFn } from '../query-client';
import { botConfigQueryKey } from '../query-keys';

export type { BotConfig };

export const botConfigQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: botConfigQueryKey, queryFn: keyPathQueryFn<BotConfig>(), enabled });

export function useBotConfig(enabled = true) {
  return useQuery(botConfigQueryOptions(enabled));
}
