import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BotConfig } from '../../../../contract/bot';
import { keyPathQueryFn } from '../../../lib/query-client';

export type { BotConfig };

/** The account's whole bot config; the dialog, the manager and the page share this one query. */
export const botConfigQueryKey = ['/api/bot-config'] as const;

export const botConfigQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: botConfigQueryKey, queryFn: keyPathQueryFn<BotConfig>(), enabled });

export function useBotConfig(enabled = true) {
  return useQuery(botConfigQueryOptions(enabled));
}
