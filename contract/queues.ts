import { z } from 'zod';
import { businessHoursInput } from './bot';
import { text } from './text';

/**
 * Queues (Filas): a number's or a topic's conversations, worked by some of the team, with hours of
 * their own. The chatbot's handoff (a rule or a menu option naming the queue) sends a conversation
 * to one; its members are offered it (assignment `manual`: the first to take it; `round_robin`:
 * given in turn to the active members signed in). Outside its hours, the queue's out-of-hours
 * message goes to the contact once a day.
 */
export const QUEUE_LIMIT = 50;
export const QUEUE_NAME_MAX = 60;
export const QUEUE_MESSAGE_MAX = 1000;
export const queueAssignments = ['manual', 'round_robin'] as const;
export type QueueAssignment = (typeof queueAssignments)[number];
export const QUEUE_ASSIGNMENT_LABELS: Record<QueueAssignment, string> = {
  manual: 'Quem pegar primeiro',
  round_robin: 'Em rodízio entre quem está online',
};

export const queuesMsg = {
  title: 'Filas',
  description: 'Separe as conversas por número ou assunto, com a equipe e o horário de cada fila.',
  created: 'Fila criada.',
  updated: 'Fila atualizada.',
  deleted: 'Fila excluída. Suas conversas ficam sem fila.',
  notFound: 'Fila não encontrada.',
  nameRequired: 'Informe o nome da fila.',
  nameTooLong: `O nome deve ter no máximo ${QUEUE_NAME_MAX} caracteres.`,
  nameTaken: 'Já existe uma fila com este nome.',
  messageTooLong: `A mensagem deve ter no máximo ${QUEUE_MESSAGE_MAX.toLocaleString('pt-BR')} caracteres.`,
  limitReached: `Esta conta já tem ${QUEUE_LIMIT} filas. Exclua alguma para criar outra.`,
  memberNotFound: 'Membro da equipe não encontrado ou desativado.',
  connectionNotFound: 'Número não encontrado.',
  assignmentInvalid: 'Escolha como distribuir: quem pegar primeiro ou em rodízio.',
} as const;

export const queueInput = z.object({
  name: text({ error: queuesMsg.nameRequired })
    .trim()
    .min(1, queuesMsg.nameRequired)
    .max(QUEUE_NAME_MAX, queuesMsg.nameTooLong),
  /** The numbers whose new conversations belong to it (empty: only by the chatbot's handoff). */
  connectionIds: z
    .array(z.uuid({ error: queuesMsg.connectionNotFound }))
    .max(50)
    .default([]),
  /** Who works it (members' ids; the owner's is the account's). */
  memberIds: z
    .array(z.uuid({ error: queuesMsg.memberNotFound }))
    .max(200)
    .default([]),
  /** Null: open around the clock. */
  hours: businessHoursInput.nullable().default(null),
  outOfHoursMessage: text().trim().max(QUEUE_MESSAGE_MAX, queuesMsg.messageTooLong).default(''),
  assignment: z.enum(queueAssignments, { error: queuesMsg.assignmentInvalid }).default('manual'),
});
export type QueueInput = z.infer<typeof queueInput>;

export const queueSchema = z.object({
  id: z.string(),
  name: z.string(),
  connectionIds: z.array(z.string()),
  memberIds: z.array(z.string()),
  hours: z.object({ start: z.string(), end: z.string(), days: z.array(z.string()) }).nullable(),
  outOfHoursMessage: z.string(),
  assignment: z.enum(queueAssignments),
  /** Conversations in it not resolved. */
  openConversations: z.number().int(),
  createdAt: z.string(),
});
export type Queue = z.infer<typeof queueSchema>;

export const queueList = z.object({ queues: z.array(queueSchema) });
export const queueIdParams = z.object({ id: z.uuid({ error: queuesMsg.notFound }) });
export const queueMutationResponse = z.object({ success: z.literal(true), message: z.string(), queue: queueSchema });
