import { z } from 'zod';
import { emailField, nameField, passwordField, type TeamRole, teamRoles, usernameField } from './auth';
import { text } from './text';

/**
 * A team in one account (Equipe). The person who registered is its owner; members join through an
 * e-mailed invitation `/convite?token=…` and sign in with their own username and password.
 * - owner: everything;
 * - manager: everything but the plan, the owner's own row and restoring a backup;
 * - agent: Conversas, contacts (read and edit), campaigns and reports (read), quick replies.
 * Each route declares the least role that may call it (server/plugins/access.ts).
 */
export { type TeamRole, teamRoles } from './auth';
/** The roles an invitation or a change may give: there is one owner, the one who registered. */
export const memberRoles = ['manager', 'agent'] as const;
export type MemberRole = (typeof memberRoles)[number];

/** `owner` > `manager` > `agent`: whether `role` is at least `least`. */
export function hasTeamRole(role: TeamRole, least: TeamRole): boolean {
  return teamRoles.indexOf(role) <= teamRoles.indexOf(least);
}

/** A login's role in its account's team: a member's own; the owner's (and an administrator's) `owner`. */
export function teamRoleOf(login: { accountId: string | null; teamRole: MemberRole | null }): TeamRole {
  return login.accountId ? (login.teamRole ?? 'agent') : 'owner';
}

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Proprietário',
  manager: 'Gerente',
  agent: 'Atendente',
};

export const TEAM_ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: 'Tudo, inclusive o plano e a restauração de backups.',
  manager: 'Tudo, menos o plano, o proprietário e a restauração de backups.',
  agent: 'Conversas, contatos (ver e editar), campanhas e relatórios (ver) e respostas rápidas.',
};

/** How long an invitation's link works. */
export const INVITATION_HOURS = 48;

export const teamMsg = {
  title: 'Equipe',
  description: 'Quem trabalha nesta conta, com que papel, e os convites enviados.',
  invite: 'Convidar membro',
  inviteTitle: 'Convidar para a equipe',
  inviteDescription: `Enviaremos um link por email, válido por ${INVITATION_HOURS} horas e de uso único.`,
  inviteSubmit: 'Enviar convite',
  invited: 'Convite enviado por email.',
  invitedNoMail: 'Convite criado. Este servidor não envia emails: copie o link e envie ao convidado.',
  revoke: 'Cancelar convite',
  revoked: 'Convite cancelado.',
  updated: 'Membro atualizado.',
  deactivate: 'Desativar',
  activate: 'Reativar',
  resetTwoFactor: 'Redefinir 2FA',
  resetTwoFactorTitle: (name: string) => `Redefinir a verificação em duas etapas de ${name}?`,
  resetTwoFactorDescription:
    'Use quando a pessoa perdeu o celular e os códigos de recuperação. O app autenticador e os códigos atuais deixam de valer, as sessões abertas dela terminam, e ela entra só com a senha até configurar a verificação de novo (obrigatória, se a equipe exigir).',
  twoFactorReset: (name: string) => `Verificação em duas etapas de ${name} redefinida.`,
  twoFactorNotOn: 'Este membro não usa verificação em duas etapas.',
  limitReached: (limit: number) =>
    `Seu plano permite até ${limit} ${limit === 1 ? 'pessoa' : 'pessoas'} na equipe, contando o proprietário e os convites pendentes. Cancele um convite, remova um membro ou mude de plano.`,
  emailTaken: 'Este email já é usado por uma conta do Disparo. Convide outro email.',
  alreadyInvited: 'Já existe um convite pendente para este email.',
  memberNotFound: 'Membro não encontrado.',
  queueNotFound: 'Fila não encontrada. Escolha uma das filas da conta.',
  nothingToChange: 'Informe o que mudar: o papel, a situação ou as filas.',
  invitationNotFound: 'Convite não encontrado.',
  ownerProtected: 'O proprietário da conta não pode ser alterado pela equipe.',
  notYourself: 'Você não pode alterar o seu próprio papel nem se desativar.',
  adminNoTeam: 'Contas de administrador não têm equipe.',
  mailUnavailable: 'O envio de emails não está configurado neste servidor: não é possível enviar convites.',
  rateLimited: 'Muitas tentativas. Aguarde um minuto e tente novamente.',
  invitationInvalid: 'Este convite é inválido, expirou ou já foi usado. Peça um novo convite.',
  acceptTitle: 'Aceitar convite',
  acceptDescription: (account: string) => `Crie seu usuário e senha para entrar na equipe de ${account}.`,
  acceptSubmit: 'Criar acesso',
  accepted: 'Acesso criado. Entre com seu usuário e senha.',
  memberInactive: 'Seu acesso a esta conta foi desativado. Fale com o responsável pela conta.',
  agentForbidden: 'Seu papel na equipe não permite esta ação. Fale com um gerente da conta.',
  managerForbidden: 'Somente o proprietário da conta pode fazer isto.',
} as const;

const roleField = z.enum(memberRoles, { error: 'Escolha um papel: gerente ou atendente.' });

export const teamMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(teamRoles),
  isActive: z.boolean(),
  /** Whether the member signs in with a second factor (TOTP). */
  twoFactor: z.boolean(),
  lastSeenAt: z.string().nullable(),
  queueIds: z.array(z.string()),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamInvitationSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(memberRoles),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;

export const teamResponse = z.object({
  members: z.array(teamMemberSchema),
  /** How many people the plan allows, the owner and open invitations included. */
  limit: z.number().int(),
  /** Invitations sent and not yet accepted nor expired. */
  invitations: z.array(teamInvitationSchema),
  /** Every login of the account must sign in with a second factor (PUT /api/team/settings). */
  requireTwoFactor: z.boolean(),
});
export type TeamResponse = z.infer<typeof teamResponse>;

/**
 * GET /api/team/directory: who of the account a conversation can be given to — the active people,
 * the owner first — readable by every role (an agent transfers to a colleague). Names only.
 */
export const teamDirectoryResponse = z.object({
  members: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(teamRoles) })),
});
export type TeamDirectory = z.infer<typeof teamDirectoryResponse>;

export const createInvitationInput = z.object({ name: nameField, email: emailField, role: roleField });
export type CreateInvitationInput = z.infer<typeof createInvitationInput>;
export const createInvitationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  invitation: teamInvitationSchema,
  /** The link the e-mail carries, for the inviter to send another way too (WhatsApp): works once. */
  inviteUrl: z.string(),
  /** Whether an e-mail went out (false on a server without e-mail: share the link). */
  emailed: z.boolean(),
});

export const invitationToken = text({ error: teamMsg.invitationInvalid })
  .min(1, teamMsg.invitationInvalid)
  .max(200, teamMsg.invitationInvalid);
export const invitationQuery = z.object({ token: invitationToken });
/** What the invitation page shows before the invitee picks a username. */
export const invitationPreviewResponse = z.object({
  name: z.string(),
  email: z.string(),
  role: z.enum(memberRoles),
  accountName: z.string(),
});
export const acceptInvitationInput = z.object({
  token: invitationToken,
  username: usernameField,
  password: passwordField,
});
export type AcceptInvitationInput = z.infer<typeof acceptInvitationInput>;

export const memberIdParams = z.object({ id: z.uuid(teamMsg.memberNotFound) });
export const invitationIdParams = z.object({ id: z.uuid(teamMsg.invitationNotFound) });

export const updateMemberInput = z
  .object({
    role: roleField.optional(),
    isActive: z.boolean().optional(),
    /** The queues (Filas) the member works, all of them: they leave the others. */
    queueIds: z
      .array(z.uuid({ error: teamMsg.queueNotFound }))
      .max(50)
      .optional(),
  })
  .refine((v) => v.role !== undefined || v.isActive !== undefined || v.queueIds !== undefined, {
    message: teamMsg.nothingToChange,
  });
export type UpdateMemberInput = z.infer<typeof updateMemberInput>;
export const updateMemberResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  member: teamMemberSchema,
});
