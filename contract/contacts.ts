import { z } from 'zod';
import { countLabel } from './plural';
import { text } from './text';

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
} as const;

const trimmed = (max: number, tooLong: string) => text().trim().max(max, tooLong);

/** Tags as the form sends them: a list, or a comma-separated text; trimmed, empties dropped. */
export const tagsInput = z
  .preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(text()).optional())
  .transform((v) => parseTags(v ?? []));

export function parseTags(v: string | string[]): string[] {
  const list = Array.isArray(v) ? v : v.split(',');
  const out: string[] = [];
  for (const t of list) {
    const tag = t.trim().slice(0, 50);
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out.slice(0, 30);
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
});

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

export const importRowError = z.object({
  row: z.number().int(),
  reason: z.string(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  tags: z.string(),
});
export type ImportRowError = z.infer<typeof importRowError>;

export const importResult = z.object({
  success: z.boolean(),
  message: z.string(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  errors: z.array(importRowError),
});
export type ImportResult = z.infer<typeof importResult>;

export const fileFormatQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });

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
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a tab / carriage return before one)
 * gets a leading apostrophe, so it is shown as text (OWASP CSV injection); the importer drops it.
 * A plain number is left alone: it cannot call anything, and an apostrophe would spoil it.
 */
export function neutralizeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** CSV for Brazilian Excel: UTF-8 with BOM, semicolon-separated, every cell neutralised. */
export function toCsv(table: string[][]): string {
  const quote = (v: string) => {
    const s = neutralizeCell(v);
    return /[;"\r\n,]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return `\uFEFF${table.map((row) => row.map(quote).join(';')).join('\r\n')}\r\n`;
}
