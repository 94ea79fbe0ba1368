import { z } from 'zod';
import { countLabel } from './plural';
import { isStorableText, text } from './text';

/** pt-BR texts of contacts, import, export and groups (SPEC §5, §8). */
export const contactsMsg = {
  required: 'Nome e telefone são obrigatórios.',
  invalidPhone: 'Telefone inválido. Informe DDD e número, por exemplo (21) 99876-5432.',
  invalidEmail: 'Email inválido',
  nameMax: 'Nome deve ter no máximo 120 caracteres',
  duplicatePhone: 'Já existe um contato com este telefone.',
  notFound: 'Contato não encontrado.',
  created: 'Contato criado com sucesso.',
  updated: 'Contato atualizado com sucesso.',
  deleted: 'Contato excluído com sucesso.',
  createError: 'Erro ao criar contato. Tente novamente.',
  updateError: 'Erro ao atualizar contato. Tente novamente.',
  deleteError: 'Erro ao excluir contato. Tente novamente.',
  copied: 'Copiado!',
  planLimit: (limit: number, label: string) =>
    `Limite de ${countLabel(limit, 'contato', 'contatos')} do ${label} atingido. Faça upgrade do plano para cadastrar mais contatos.`,
  importPlanLimit: (imported: number, skipped: number, limit: number, label: string) =>
    `${countLabel(imported, 'contato importado', 'contatos importados')}; ${countLabel(skipped, 'não foi importado', 'não foram importados')} porque o ${label} permite até ${countLabel(limit, 'contato', 'contatos')}.`,
  invalidFileTitle: 'Arquivo inválido',
  invalidFile: 'Por favor, selecione um arquivo CSV, TXT ou Excel (.csv, .txt, .xls, .xlsx)',
  fileTooLarge: (mb: number) => `Arquivo muito grande. O limite é ${mb} MB.`,
  spreadsheetTooLarge: 'Planilha muito grande ou compactada de forma suspeita. Divida o arquivo e tente novamente.',
  spreadsheetBusy: 'Outra planilha desta conta ainda está sendo lida. Aguarde alguns segundos e tente novamente.',
  noFile: 'Nenhum arquivo enviado. Envie o arquivo no campo "file".',
  emptyFile: 'O arquivo não tem contatos.',
  noPhoneColumn: 'Não encontramos a coluna Telefone. Use o modelo com as colunas Nome, Telefone, Email e Tags.',
  tooManyRows: (max: number) =>
    `O arquivo tem mais de ${countLabel(max, 'linha', 'linhas')}. Divida-o e tente novamente.`,
  /** SPEC §8 'N contatos importados com sucesso'; '1 contato importado com sucesso' for one. */
  importDone: (n: number) => `${countLabel(n, 'contato importado', 'contatos importados')} com sucesso`,
  importDuplicates: (n: number) => countLabel(n, 'duplicado ignorado', 'duplicados ignorados'),
  importRowErrors: (n: number) => countLabel(n, 'linha com erro', 'linhas com erro'),
  importErrorTitle: 'Erro na importação',
  importError: 'Falha ao processar arquivo de contatos',
  rowMissingPhone: 'Telefone ausente',
  rowInvalidPhone: 'Telefone inválido',
  rowInvalidEmail: 'Email inválido',
  rowDuplicateInFile: 'Telefone repetido no arquivo',
  rowOverLimit: 'Limite de contatos do plano atingido',
  exportError: 'Erro ao exportar contatos. Tente novamente.',
  tagsLoadError: 'Não foi possível carregar as tags.',
  bulkIdsRequired: 'Selecione ao menos um contato.',
  bulkTooMany: (max: number) => `Selecione no máximo ${countLabel(max, 'contato', 'contatos')} por vez.`,
  bulkActionInvalid: 'Ação inválida. Use adicionar tag, remover tag ou excluir.',
  bulkTagRequired: 'Informe a tag.',
  bulkTagComma: 'A tag não pode conter vírgula: informe uma tag por vez.',
  bulkTagTooLong: 'A tag deve ter no máximo 50 caracteres.',
  bulkTagged: (tag: string, n: number) => `Tag "${tag}" adicionada a ${countLabel(n, 'contato', 'contatos')}.`,
  bulkUntagged: (tag: string, n: number) => `Tag "${tag}" removida de ${countLabel(n, 'contato', 'contatos')}.`,
  bulkTagsFull: (n: number) =>
    `${countLabel(n, 'contato já tem', 'contatos já têm')} 30 tags e não ${n === 1 ? 'recebeu' : 'receberam'} a nova.`,
  bulkDeleted: (n: number) => `${countLabel(n, 'contato excluído', 'contatos excluídos')} com sucesso.`,
  bulkError: 'Erro ao aplicar a ação aos contatos selecionados. Tente novamente.',
} as const;

export const groupsMsg = {
  nameRequired: 'Nome do grupo é obrigatório.',
  nameMax: 'Nome do grupo deve ter no máximo 120 caracteres',
  duplicateName: 'Já existe um grupo com este nome.',
  notFound: 'Grupo não encontrado.',
  created: 'Grupo criado com sucesso.',
  updated: 'Grupo atualizado com sucesso.',
  deleted: 'Grupo excluído com sucesso.',
  createError: 'Erro ao criar grupo. Tente novamente.',
  updateError: 'Erro ao atualizar grupo. Tente novamente.',
  deleteError: 'Erro ao excluir grupo. Tente novamente.',
  exportMembersError: 'Erro ao extrair membros. Tente novamente.',
  syncDone: (created: number, updated: number) =>
    `Sincronização concluída: ${countLabel(created, 'grupo novo', 'grupos novos')}, ${countLabel(updated, 'atualizado', 'atualizados')}.`,
  syncError: 'Erro ao sincronizar grupos. Tente novamente.',
  noWhatsappId: 'Este grupo não está vinculado a um grupo do WhatsApp. Sincronize os grupos primeiro.',
  connectToSync: 'Conecte seu WhatsApp para sincronizar os grupos.',
  connectToExport: 'Conecte seu WhatsApp para exportar os membros do grupo.',
  /** Why a campaign may not target groups that are not linked to a WhatsApp group (named, at most five). */
  notLinkedTarget: (names: readonly string[]) => {
    const shown = names.slice(0, 5).map((n) => `"${n}"`);
    const more = names.length > shown.length ? ` e mais ${names.length - shown.length}` : '';
    return names.length === 1
      ? `O grupo ${shown[0]} não está vinculado a um grupo do WhatsApp e não pode receber campanhas. Sincronize os grupos na página Grupos ou informe o ID do grupo no WhatsApp.`
      : `Os grupos ${shown.join(', ')}${more} não estão vinculados a grupos do WhatsApp e não podem receber campanhas. Sincronize os grupos na página Grupos ou informe o ID de cada grupo no WhatsApp.`;
  },
  notLinked: 'Sem vínculo com o WhatsApp: não recebe campanhas',
} as const;

const trimmed = (max: number, tooLong: string) => text().trim().max(max, tooLong);

export const TAGS_MAX = 30;
export const TAG_MAX_LENGTH = 50;

/** The items of a comma-separated text, one at a time, so that reading stops where the caller stops. */
function* commaItems(s: string): Generator<string> {
  let start = 0;
  for (let end = s.indexOf(','); end >= 0; end = s.indexOf(',', start)) {
    yield s.slice(start, end);
    start = end + 1;
  }
  yield s.slice(start);
}

const tagOf = (item: string) => item.trim().slice(0, TAG_MAX_LENGTH);

/**
 * The items of a tags field worth validating: each distinct one once, up to the one that completes
 * TAGS_MAX tags or the first one that will be refused. A request may carry any number of items
 * (110,000 blocked the server for seconds), and the others cannot change the answer (DESIGN §3).
 */
function tagItemsToValidate(items: Iterable<unknown>): unknown[] {
  const read = new Set<unknown>();
  const tags = new Set<string>();
  for (const item of items) {
    if (read.has(item)) continue;
    read.add(item);
    if (typeof item !== 'string' || !isStorableText(item)) break;
    const tag = tagOf(item);
    if (tag) tags.add(tag);
    if (tags.size === TAGS_MAX) break;
  }
  return [...read];
}

/** Tags as the form sends them: a list, or a comma-separated text; trimmed, empties dropped. */
export const tagsInput = z
  .preprocess(
    (v) => (typeof v === 'string' ? tagItemsToValidate(commaItems(v)) : Array.isArray(v) ? tagItemsToValidate(v) : v),
    z.array(text()).optional(),
  )
  .transform((v) => parseTags(v ?? []));

/** The first 30 distinct tags, in order, each trimmed and cut to 50 characters; it reads no further. */
export function parseTags(v: string | readonly string[]): string[] {
  const tags = new Set<string>();
  for (const item of typeof v === 'string' ? commaItems(v) : v) {
    const tag = tagOf(item);
    if (tag) tags.add(tag);
    if (tags.size === TAGS_MAX) break;
  }
  return [...tags];
}

export const contactInput = z.object({
  name: trimmed(120, contactsMsg.nameMax).min(1, contactsMsg.required),
  phone: trimmed(40, contactsMsg.invalidPhone).min(1, contactsMsg.required),
  email: z
    .union([z.literal(''), z.null(), z.email(contactsMsg.invalidEmail).max(200, contactsMsg.invalidEmail)])
    .optional()
    .transform((v) => v || null),
  isActive: z.boolean().optional().default(true),
  optedOut: z.boolean().optional().default(false),
  tags: tagsInput,
});
export type ContactInput = z.input<typeof contactInput>;

export const contactSchema = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string(),
  email: z.string().nullable(),
  isActive: z.boolean(),
  optedOut: z.boolean(),
  tags: z.array(z.string()),
  isWhatsAppActive: z.boolean().nullable(),
  whatsappCheckedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactStats = z.object({ total: z.number().int(), active: z.number().int(), optedOut: z.number().int() });
export type ContactStats = z.infer<typeof contactStats>;

export const CONTACTS_PAGE_MAX = 200;

export const contactListQuery = z.object({
  // Not stored, so not `text()`: a search holding a NUL simply matches nothing.
  q: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  limit: z.coerce.number().int().min(1).max(CONTACTS_PAGE_MAX).optional(),
  /** Ours, additive: only contacts carrying this tag (exactly as stored). Like q, answers a page. */
  tag: z.string().max(TAG_MAX_LENGTH).optional(),
});

/** One of the account's tags and how many contacts carry it. */
export const contactTagCount = z.object({ tag: z.string(), count: z.number().int() });
export type ContactTagCount = z.infer<typeof contactTagCount>;
/** The most used tags an answer lists (an account may have any number of distinct tags). */
export const CONTACT_TAGS_LIST_MAX = 500;
/** `GET /api/contacts/tags`: the account's tags, most used first (then by name), at most CONTACT_TAGS_LIST_MAX. */
export const contactTagsResponse = z.array(contactTagCount);

/** How many contacts one bulk action may name. */
export const CONTACTS_BULK_MAX = 1000;
export const contactBulkActions = ['tag', 'untag', 'delete'] as const;
export type ContactBulkAction = (typeof contactBulkActions)[number];

/** `POST /api/contacts/bulk`: add or remove one tag, or delete, for the caller's contacts among `ids`. */
export const contactBulkInput = z
  .object({
    action: z.enum(contactBulkActions, { error: contactsMsg.bulkActionInvalid }),
    ids: z
      .array(z.uuid({ error: 'Identificador inválido.' }), { error: contactsMsg.bulkIdsRequired })
      .min(1, contactsMsg.bulkIdsRequired)
      .max(CONTACTS_BULK_MAX, contactsMsg.bulkTooMany(CONTACTS_BULK_MAX)),
    tag: text({ error: contactsMsg.bulkTagRequired })
      .trim()
      .max(TAG_MAX_LENGTH, contactsMsg.bulkTagTooLong)
      .refine((t) => !t.includes(','), contactsMsg.bulkTagComma)
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.action !== 'delete' && !body.tag) {
      ctx.addIssue({ code: 'custom', path: ['tag'], message: contactsMsg.bulkTagRequired });
    }
  });
export type ContactBulkInput = z.input<typeof contactBulkInput>;

/** The 'Adicionar tag' / 'Remover tag' dialog's form: `contactBulkInput`'s one tag, required there. */
export const contactBulkTagForm = z.object({
  tag: contactBulkInput.shape.tag.unwrap().refine((t) => t !== '', contactsMsg.bulkTagRequired),
});

export const contactBulkResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** How many of the caller's contacts the action changed (ids of nothing, or of another account, are not counted). */
  affected: z.number().int(),
});
export type ContactBulkResponse = z.infer<typeof contactBulkResponse>;

export const contactPage = z.object({
  items: z.array(contactSchema),
  total: z.number().int(),
  /** True when a search has more matches than it counted (`total` is then a lower bound). */
  totalIsLowerBound: z.boolean(),
  page: z.number().int(),
  limit: z.number().int(),
  stats: contactStats,
  contactLimit: z.number().int().nullable(),
});
export type ContactPage = z.infer<typeof contactPage>;

/** `GET /api/contacts` answers the spec's plain list; with q, page or limit, one page and the totals. */
export const contactListResponse = z.union([z.array(contactSchema), contactPage]);

export const contactIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });
export const contactMutationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  contact: contactSchema,
});

/** The columns of an import file, as a refused row names the one it was refused for. */
export const importColumns = ['name', 'phone', 'email', 'tags'] as const;
export type ImportColumn = (typeof importColumns)[number];

/** The longest offending value an import error quotes; a longer one is cut and ends with '…'. */
export const IMPORT_ERROR_VALUE_MAX = 60;

/**
 * A refused row of an import: its line in the file, the reason, the row's cells (for the 'linhas
 * rejeitadas' file), and — added after SPEC's `errors`, so a client that does not know them still
 * works — the column the row was refused for and that column's value as written ('' when missing).
 */
export const importRowError = z.object({
  row: z.number().int(),
  reason: z.string(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  tags: z.string(),
  column: z.enum(importColumns),
  value: z.string(),
});
export type ImportRowError = z.infer<typeof importRowError>;

/** 'Linha 56: Email inválido (email-ruim)': a refused row as the import result lists it. */
export function importErrorLine(e: Pick<ImportRowError, 'row' | 'reason' | 'value'>): string {
  return `Linha ${e.row}: ${e.reason}${e.value ? ` (${e.value})` : ''}`;
}

export const importResult = z.object({
  success: z.boolean(),
  message: z.string(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  errors: z.array(importRowError),
});
export type ImportResult = z.infer<typeof importResult>;

export const fileFormatQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });

/**
 * `GET /api/contacts/export` (ours): the format and, optional, the list's filter — its search (q)
 * and tag, as `GET /api/contacts` reads them — so the file holds what the list shows.
 */
export const contactExportQuery = fileFormatQuery.extend({
  q: contactListQuery.shape.q,
  tag: contactListQuery.shape.tag,
});
export type ContactExportQuery = z.input<typeof contactExportQuery>;

export const IMPORT_MAX_FILE_MB = 25;
export const IMPORT_MAX_ROWS = 200_000;
export const IMPORT_TEMPLATE_COLUMNS = ['Nome', 'Telefone', 'Email', 'Tags'] as const;

/** Words that opt a contact out when sent to the chatbot (DESIGN §3). */
export const OPT_OUT_KEYWORDS = ['SAIR', 'PARAR', 'STOP', 'CANCELAR'] as const;
/** The answer a contact gets after sending one of the opt-out words. */
export const OPT_OUT_CONFIRMATION =
  'Pronto! Você não receberá mais nossas mensagens. Se mudar de ideia, é só falar com a gente.';

// Groups

export const groupInput = z.object({
  name: trimmed(120, groupsMsg.nameMax).min(1, groupsMsg.nameRequired),
  whatsappGroupId: text().trim().max(200).optional().default(''),
  membersCount: z
    .unknown()
    .optional()
    .transform((v) => {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 1_000_000 ? n : 0;
    }),
  isActive: z.boolean().optional().default(true),
});
export type GroupInput = z.input<typeof groupInput>;

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  whatsappGroupId: z.string(),
  membersCount: z.number().int(),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export type Group = z.infer<typeof groupSchema>;
export const groupList = z.array(groupSchema);
export const groupIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });
export const groupMutationResponse = z.object({ success: z.literal(true), message: z.string(), group: groupSchema });
export const groupSyncResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  created: z.number().int(),
  updated: z.number().int(),
});

/** A plain number ('+5521998765432', '-2', '3,5'): a spreadsheet can only read it as that number. */
const PLAIN_NUMBER = /^[+-]?\d[\d.,]*$/;

/**
 * The start of a cell, or of a part of it after a tab, carriage return or line feed, that a
 * spreadsheet would run as a formula: =, +, - or @, with any blanks or double quotes before it
 * (some programs drop them first).
 */
const FORMULA_START = /(^|[\t\r\n])((?:[^\S\t\r\n]|")*[=+\-@][^\t\r\n]*)/g;

/**
 * A cell no spreadsheet runs as a formula (OWASP CSV injection): the cell, and each part of it after
 * a tab or a line break, gets an apostrophe where a formula would start, so it is shown as text.
 * The parts count because not every reader honours the quotes: a paste into a sheet, a file opened
 * as .tsv or a line-by-line tool makes each part a cell of its own. An apostrophe rather than
 * dropping the tab or the line break: the text stays as written, a spreadsheet hides the apostrophe,
 * and the importer drops the leading one, so ordinary values come back unchanged.
 * A cell that is a plain number is left alone: it cannot call anything, and an apostrophe would
 * spoil it.
 */
export function neutralizeCell(value: string): string {
  const plainNumber = PLAIN_NUMBER.test(value);
  return value.replace(FORMULA_START, (part, before: string, rest: string) =>
    before === '' && plainNumber ? part : `${before}'${rest}`,
  );
}

/**
 * CSV for Brazilian Excel: UTF-8 with BOM, semicolon-separated, every cell neutralised. A cell with a
 * tab is quoted like one with a separator: programs that guess the delimiter may pick the tab.
 */
export function toCsv(table: string[][]): string {
  const quote = (v: string) => {
    const s = neutralizeCell(v);
    return /[;"\r\n,\t]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return `\uFEFF${table.map((row) => row.map(quote).join(';')).join('\r\n')}\r\n`;
}
