import type { z } from 'zod';
import type { adminCleanupResponse } from '#contract/admin';
import { countLabel, pluralForm } from '#contract/plural';
import { api } from '#web/lib/api';
import { adminUsersQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type AdminCleanupResponse = z.infer<typeof adminCleanupResponse>;

/** Removes expired demo accounts. */
export function cleanupExpired(): Promise<AdminCleanupResponse> {
  return api.post<AdminCleanupResponse>('/api/admin/cleanup');
}

export function useCleanupExpired() {
  return useInvalidatingMutation(cleanupExpired, [adminUsersQueryKey]);
}

/** '3 contas demo expiradas foram removidas.', '1 conta demo expirada foi removida.' */
export function cleanupSummary(deletedCount: number): string {
  if (deletedCount === 0) return 'Nenhuma conta demo expirada encontrada.';
  return `${countLabel(deletedCount, 'conta demo expirada', 'contas demo expiradas')} ${pluralForm(deletedCount, 'foi removida', 'foram removidas')}.`;
}
