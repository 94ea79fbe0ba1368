import { z } from 'zod';
import { formatNumber } from './format';
import { countLabel, pluralForm } from './plural';

/** Number verification: which contacts have WhatsApp (SPEC §2 Verificação, §5, §8). */
export const verifyMsg = {
  done: 'Verificação concluída!',
  /** '3 de 10 contatos têm WhatsApp ativo.', '1 de 1 contato tem WhatsApp ativo.' */
  doneDetail: (active: number, total: number) =>
    `${formatNumber(active)} de ${countLabel(total, 'contato', 'contatos')} ${pluralForm(active, 'tem', 'têm')} WhatsApp ativo.`,
  errorTitle: 'Erro na verificação',
  error: 'Falha ao verificar lista de contatos.',
  running: 'Verificando...',
  connectToVerify: 'Conecte seu WhatsApp para verificar os números dos contatos.',
} as const;

export const verifiedContact = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string(),
  isWhatsAppActive: z.boolean().nullable(),
  lastSeen: z.string().nullable(),
});
export const verifyListResponse = z.object({
  totalContacts: z.number().int(),
  activeContacts: z.number().int(),
  inactiveContacts: z.number().int(),
  contacts: z.array(verifiedContact),
  progress: z.object({
    status: z.enum(['idle', 'running', 'done', 'error']),
    checked: z.number().int(),
    pending: z.number().int(),
    error: z.string().nullable(),
  }),
});
export type VerifyListResponse = z.infer<typeof verifyListResponse>;
