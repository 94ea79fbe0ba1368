import { z } from 'zod';
import { text } from './text';
import { uploadSchema } from './uploads';

/**
 * Quick replies (Respostas rápidas): a team's ready answers, typed in Conversas as `/atalho`. The
 * text may hold the variables of campaigns ({{nome}}, {{telefone}}…), filled for the contact when
 * the reply is used. Everyone of the team uses them; the owner and managers keep them.
 */
export const QUICK_REPLY_LIMIT = 200;
export const QUICK_REPLY_SHORTCUT_MAX = 30;
export const QUICK_REPLY_TEXT_MAX = 4096;

export const quickRepliesMsg = {
  title: 'Respostas rápidas',
  description: 'Textos prontos da equipe: digite / na conversa para usar.',
  created: 'Resposta rápida criada.',
  updated: 'Resposta rápida atualizada.',
  deleted: 'Resposta rápida excluída.',
  notFound: 'Resposta rápida não encontrada.',
  shortcutRequired: 'Informe o atalho.',
  shortcutInvalid: `O atalho deve ter até ${QUICK_REPLY_SHORTCUT_MAX} letras, números, hífen ou sublinhado, sem espaços.`,
  shortcutTaken: 'Já existe uma resposta rápida com este atalho.',
  textRequired: 'Escreva o texto da resposta.',
  textTooLong: `O texto deve ter no máximo ${QUICK_REPLY_TEXT_MAX.toLocaleString('pt-BR')} caracteres.`,
  limitReached: `Esta conta já tem ${QUICK_REPLY_LIMIT} respostas rápidas. Exclua alguma para criar outra.`,
  mediaInvalid: 'Arquivo não encontrado. Envie o arquivo de novo e escolha-o para a resposta.',
} as const;

/** `/boas-vindas` or `boas-vindas`: kept without the slash, in lower case. */
const shortcutField = text({ error: quickRepliesMsg.shortcutRequired })
  .trim()
  .transform((v) => v.replace(/^\//, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, quickRepliesMsg.shortcutRequired)
      .max(QUICK_REPLY_SHORTCUT_MAX, quickRepliesMsg.shortcutInvalid)
      .regex(/^[\p{L}\p{N}_-]+$/u, quickRepliesMsg.shortcutInvalid),
  );

export const quickReplyInput = z.object({
  shortcut: shortcutField,
  text: text({ error: quickRepliesMsg.textRequired })
    .trim()
    .min(1, quickRepliesMsg.textRequired)
    .max(QUICK_REPLY_TEXT_MAX, quickRepliesMsg.textTooLong),
  /**
   * Ours: a file that goes with the text, `upload:<id>` (or `/api/uploads/<id>`) of one of the
   * account's files. Null or '' takes it away; left out, an edit keeps the one it has.
   */
  mediaUrl: text({ error: quickRepliesMsg.mediaInvalid }).trim().max(2048, quickRepliesMsg.mediaInvalid).nullish(),
});
export type QuickReplyInput = z.infer<typeof quickReplyInput>;

export const quickReplySchema = z.object({
  id: z.string(),
  shortcut: z.string(),
  text: z.string(),
  /** Ours: the file that goes with the text (`upload:<id>`), or null. */
  mediaUrl: z.string().nullable().optional(),
  /** Ours: that file, as an upload answers it (the reply box attaches it). */
  media: uploadSchema.nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QuickReply = z.infer<typeof quickReplySchema>;

export const quickReplyList = z.object({ quickReplies: z.array(quickReplySchema) });
export const quickReplyQuery = z.object({
  /** Replies whose shortcut starts with this (what follows the `/` typed so far), or whose text holds it. */
  search: text().trim().max(100).optional(),
});
export const quickReplyIdParams = z.object({ id: z.uuid({ error: quickRepliesMsg.notFound }) });
export const quickReplyMutationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  quickReply: quickReplySchema,
});
