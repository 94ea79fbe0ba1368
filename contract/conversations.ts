import './zod-locale';
import { z } from 'zod';
import {
  messageContactCardSchema,
  messageLocationSchema,
  messageMediaSchema,
  messageReactionSchema,
  messageReplyToSchema,
} from './message-content';
import { text } from './text';

/** Longest internal note of a conversation. */
export const NOTE_TEXT_MAX = 4096;

/** pt-BR texts of the 'Conversas' page and its API. */
export const conversationsMsg = {
  title: 'Conversas',
  empty: 'Nenhuma conversa ainda. Quando um contato escrever para o seu WhatsApp, ela aparece aqui.',
  notFound: 'Conversa não encontrada.',
  textRequired: 'Escreva a mensagem.',
  textTooLong: 'A mensagem deve ter no máximo 4.096 caracteres.',
  mediaInvalid: 'Arquivo não encontrado. Anexe o arquivo novamente.',
  sent: 'Mensagem enviada.',
  sendError: 'Não foi possível enviar a mensagem. Verifique a conexão do WhatsApp e tente novamente.',
  notConnected: 'Conecte o WhatsApp para responder às conversas.',
  /** The conversation's own number cannot send (a conversation is answered from the number it is on). */
  numberNotConnected: (label: string) =>
    `O número ${label} está desconectado. Conecte-o na página Números para responder a esta conversa.`,
  numberNotFound: 'Número não encontrado.',
  optedOut: 'Este contato pediu para não receber mensagens (SAIR). Não é possível enviar.',
  takenOver: 'Você assumiu esta conversa: o chatbot fica em silêncio nela.',
  released: 'Conversa devolvida ao chatbot.',
  search: 'Buscar conversas...',
  assigned: (name: string) => `Conversa atribuída a ${name}.`,
  unassigned: 'Conversa sem responsável.',
  statusChanged: (label: string) => `Conversa marcada como ${label.toLowerCase()}.`,
  memberNotFound: 'Membro da equipe não encontrado ou desativado.',
  statusInvalid: 'Escolha um estado: aberta, pendente ou resolvida.',
  assigneeInvalid: 'Filtro de responsável inválido: use me, none ou o id de um membro.',
  noteRequired: 'Escreva a nota.',
  noteTooLong: `A nota deve ter no máximo ${NOTE_TEXT_MAX.toLocaleString('pt-BR')} caracteres.`,
  noteAdded: 'Nota adicionada. Ela fica só para a equipe e não é enviada ao contato.',
  mentioned: (author: string, contact: string) => `${author} mencionou você em uma nota da conversa com ${contact}.`,
} as const;

/** Where the team stands with a conversation: a new message from the contact reopens a resolved one. */
export const conversationStatuses = ['open', 'pending', 'resolved'] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];
export const CONVERSATION_STATUS_LABELS: Record<ConversationStatus, string> = {
  open: 'Aberta',
  pending: 'Pendente',
  resolved: 'Resolvida',
};

export const messageDirections = ['in', 'out'] as const;
/**
 * Who wrote an outbound message: the chatbot, a campaign, or a person from the 'Conversas' page.
 * Ours: `note`, a team's internal note in the thread — never sent to WhatsApp (direction 'out',
 * status 'sent', `author` its writer).
 */
export const messageSources = ['contact', 'bot', 'campaign', 'manual', 'note'] as const;
export type MessageSource = (typeof messageSources)[number];
export const messageSourceLabels: Record<MessageSource, string> = {
  contact: 'Contato',
  bot: 'Chatbot',
  campaign: 'Campanha',
  manual: 'Atendente',
  note: 'Nota interna',
};
/** Delivery state of an outbound message; inbound ones are 'received'. */
export const conversationMessageStatuses = ['received', 'queued', 'sent', 'delivered', 'read', 'failed'] as const;
export type ConversationMessageStatus = (typeof conversationMessageStatuses)[number];

export const conversationSchema = z.object({
  /** The contact's number in E.164 digits; also the conversation's id in the API. */
  phone: z.string(),
  contactId: z.string().nullable(),
  name: z.string().nullable(),
  lastMessageAt: z.string(),
  lastMessageText: z.string(),
  lastDirection: z.enum(messageDirections),
  unread: z.number().int(),
  /** While a person answers, the bot is silent with this contact until this time. */
  takenOverUntil: z.string().nullable(),
  /**
   * Ours: the account's number this conversation is on (`/api/connections` id; replies go out through
   * it), and its label. A contact who wrote to two numbers has two conversations, one per number.
   */
  connectionId: z.string().nullable().optional(),
  numberLabel: z.string().nullable().optional(),
  /** Ours: who wrote the last message when it is outbound ('bot' or 'manual'; campaigns leave it as it was). */
  lastSource: z.enum(messageSources).nullable().optional(),
  /** Ours, the team's: who wrote the last message when it is a person's answer (a login's id), and their name. */
  lastAuthorId: z.string().nullable().optional(),
  lastAuthorName: z.string().nullable().optional(),
  /** Ours, the team's: where it stands, who has it (a member's id, the owner's for the owner) and their name. */
  status: z.enum(conversationStatuses).optional(),
  assigneeId: z.string().nullable().optional(),
  assigneeName: z.string().nullable().optional(),
  /** Ours, the team's: the queue it is in (its number's, or the chatbot's handoff's), and its name. */
  queueId: z.string().nullable().optional(),
  queueName: z.string().nullable().optional(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationListQuery = z.object({
  search: text().trim().max(100).optional(),
  /** Ours: only the conversations on this number (`/api/connections` id). */
  connectionId: z.uuid({ error: 'Número não encontrado.' }).optional(),
  /** Ours: `me` (the caller's), `none` (nobody's) or a member's id. */
  assignee: z
    .string()
    .refine((v) => v === 'me' || v === 'none' || z.uuid().safeParse(v).success, conversationsMsg.assigneeInvalid)
    .optional(),
  /** Ours: only the conversations in this state. */
  status: z.enum(conversationStatuses, { error: conversationsMsg.statusInvalid }).optional(),
  /** Ours: only the conversations of this queue (`/api/queues` id). */
  queueId: z.uuid({ error: 'Fila não encontrada.' }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const conversationListResponse = z.object({ conversations: z.array(conversationSchema) });

/** One button of an outbound message as the customer got it (SPEC §3 Button, without its id). */
export const conversationButtonSchema = z.object({
  text: z.string(),
  type: z.enum(['url', 'phone', 'quick_reply']),
  value: z.string(),
});
export type ConversationButton = z.infer<typeof conversationButtonSchema>;

export const conversationMessageSchema = z.object({
  id: z.string(),
  direction: z.enum(messageDirections),
  source: z.enum(messageSources),
  text: z.string(),
  imageUrl: z.string().nullable(),
  status: z.enum(conversationMessageStatuses),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  /**
   * The buttons an outbound message carried, in order. `numbered`: they went as a numbered text menu
   * ('1. …', answered with the number), as on a personal number; otherwise as WhatsApp buttons.
   */
  buttons: z.object({ numbered: z.boolean(), options: z.array(conversationButtonSchema) }).optional(),
  /**
   * An inbound answer to buttons: the option's label and, for a numbered menu, the number the
   * contact sent (`text` keeps what they sent: '2', the option's words, or a button's title).
   */
  choice: z.object({ option: z.string(), number: z.number().int().optional() }).optional(),
  /**
   * Ours, additive: who wrote an outbound message, beside its `source` — the campaign's name, or the
   * name of the person who answered from 'Conversas'; null for the chatbot and inbound messages.
   */
  author: z.string().nullable().optional(),
  /**
   * Ours, additive: what the message carries besides its text (then its caption): a file (image,
   * document, audio or voice note, video, sticker), a location, a contact card; a reaction to one
   * of the conversation's messages; the message it answers; or, for a kind WhatsApp has and we do
   * not show, its name (`text` then says so).
   */
  media: messageMediaSchema.nullable().optional(),
  location: messageLocationSchema.nullable().optional(),
  contactCard: messageContactCardSchema.nullable().optional(),
  reaction: messageReactionSchema.nullable().optional(),
  replyTo: messageReplyToSchema.nullable().optional(),
  unsupported: z.string().nullable().optional(),
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

export const conversationParams = z.object({
  phone: z.string().regex(/^\d{6,20}$/, { error: conversationsMsg.notFound }),
});
/**
 * Ours: which of the contact's conversations (one per number) a route means. Absent: the one with
 * the latest activity, or, for a contact who never wrote, a new one on the account's default number.
 */
export const conversationThreadQuery = z.object({
  connectionId: z.uuid({ error: conversationsMsg.numberNotFound }).optional(),
});
/** Assign a conversation to a member of the team (the owner's id for the owner), or to nobody (null). */
export const assignConversationInput = z.object({
  memberId: z.uuid({ error: conversationsMsg.memberNotFound }).nullable(),
});
export const conversationStatusInput = z.object({
  status: z.enum(conversationStatuses, { error: conversationsMsg.statusInvalid }),
});

export const conversationMessagesQuery = conversationThreadQuery.extend({
  /** Messages before this time (ISO), for scrolling back. */
  before: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const conversationDetailResponse = z.object({
  conversation: conversationSchema,
  messages: z.array(conversationMessageSchema),
});

/**
 * A person's answer: a text, a file (`mediaUrl`: `upload:<id>` or `/api/uploads/<id>`, one of the
 * account's files — uploaded, or received and sent on — or an https link to an image), or both (the
 * text is then the caption where WhatsApp allows one, else a message right after).
 */
export const sendConversationMessageInput = z
  .object({
    text: text({ error: conversationsMsg.textRequired }).trim().max(4096, conversationsMsg.textTooLong).default(''),
    mediaUrl: text().trim().max(2048, conversationsMsg.mediaInvalid).optional(),
  })
  .refine((m) => m.text.length > 0 || Boolean(m.mediaUrl), { error: conversationsMsg.textRequired, path: ['text'] });
/** An internal note: `@Nome` (a member's name, or its first word) tells that member. */
export const conversationNoteInput = z.object({
  text: text({ error: conversationsMsg.noteRequired })
    .trim()
    .min(1, conversationsMsg.noteRequired)
    .max(NOTE_TEXT_MAX, conversationsMsg.noteTooLong),
});

export const conversationActionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  conversation: conversationSchema,
});

export const conversationNoteResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  note: conversationMessageSchema,
  /** The members the note's @mentions named (each told in their notifications). */
  mentioned: z.array(z.object({ id: z.string(), name: z.string() })),
});
