import { z } from 'zod';
import { userSchema } from './auth';
import { planTypes } from './plans';

export const adminUserIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });

/** An admin may move an account between pending, active and regular; never make or unmake admins or demos. */
export const adminAssignableAccountTypes = ['pending', 'active', 'regular'] as const;

export const adminUpdateUserInput = z
  .object({
    isActive: z.boolean({ error: 'isActive deve ser verdadeiro ou falso.' }).optional(),
    planType: z.enum(planTypes, { error: 'Plano inválido.' }).optional(),
    accountType: z
      .enum(adminAssignableAccountTypes, {
        error: 'Tipo de conta não permitido. Use pendente, ativo ou regular.',
      })
      .optional(),
  })
  .refine((o) => Object.keys(o).length > 0, { message: 'Nenhuma alteração informada.' });
export type AdminUpdateUserInput = z.infer<typeof adminUpdateUserInput>;

export const adminUserList = z.array(userSchema);
export const adminUpdateUserResponse = z.object({ success: z.literal(true), message: z.string(), user: userSchema });
export const adminCleanupResponse = z.object({ success: z.literal(true), deletedCount: z.number().int() });

export type AdminTab = 'all' | 'active' | 'pending' | 'inactive' | 'admin';

/** Admin filters of SPEC §5, shared so the tab counts and the list agree. */
export function matchesAdminTab(u: { accountType: string; isActive: boolean }, tab: AdminTab): boolean {
  switch (tab) {
    case 'all':
      return true;
    case 'active':
      return u.isActive && u.accountType !== 'demo' && u.accountType !== 'pending';
    case 'pending':
      return u.accountType === 'pending';
    case 'inactive':
      return !u.isActive && u.accountType !== 'pending';
    case 'admin':
      return u.accountType === 'admin';
  }
}

export function matchesAdminSearch(u: { name: string; email: string; username: string }, q: string): boolean {
  const s = q.trim().toLowerCase();
  if (!s) return true;
  return [u.name, u.email, u.username].some((f) => f.toLowerCase().includes(s));
}

/** Background jobs as the administrator sees them (GET /api/admin/jobs). */
export const jobStates = ['queued', 'running', 'done', 'dead'] as const;
export type JobState = (typeof jobStates)[number];

export const adminJobsMsg = {
  title: 'Tarefas em segundo plano',
  description: 'Trabalho que o servidor faz depois das requisições: envios, alertas, verificações.',
  states: { queued: 'Na fila', running: 'Executando', done: 'Concluídas', dead: 'Falharam' } satisfies Record<
    JobState,
    string
  >,
  noJobs: 'Nenhuma tarefa registrada.',
  noDead: 'Nenhuma tarefa falhou.',
  deadTitle: 'Tarefas que falharam',
  retry: 'Tentar de novo',
  retried: 'Tarefa colocada de volta na fila.',
  notDead: 'Tarefa não encontrada entre as que falharam.',
} as const;

/** How many jobs of a kind are in a state. */
export const adminJobCount = z.object({ name: z.string(), state: z.enum(jobStates), count: z.number().int() });
/** A job that used its attempts (or failed for good), kept with its error. */
export const adminDeadJob = z.object({
  id: z.string(),
  name: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  finishedAt: z.string().nullable(),
  accountId: z.string().nullable(),
  accountEmail: z.string().nullable(),
});
export type AdminDeadJob = z.infer<typeof adminDeadJob>;
/** The latest dead jobs listed at most. */
export const ADMIN_DEAD_JOBS_MAX = 50;
export const adminJobsResponse = z.object({
  counts: z.array(adminJobCount),
  dead: z.array(adminDeadJob).max(ADMIN_DEAD_JOBS_MAX),
});
export type AdminJobsResponse = z.infer<typeof adminJobsResponse>;
export const adminJobIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });
export const adminJobRetryResponse = z.object({ success: z.literal(true), message: z.string() });
