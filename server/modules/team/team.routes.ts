import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okResponse } from '../../../contract/responses';
import {
  acceptInvitationInput,
  createInvitationInput,
  createInvitationResponse,
  INVITATION_HOURS,
  invitationIdParams,
  invitationPreviewResponse,
  invitationQuery,
  memberIdParams,
  TEAM_ROLE_LABELS,
  teamMsg,
  teamResponse,
  updateMemberInput,
  updateMemberResponse,
} from '../../../contract/team';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { mailTemplates } from '../../mail/templates';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { record } from '../../records/events';
import {
  acceptInvitation,
  accountNameOf,
  describeMemberChange,
  inviteMember,
  listTeam,
  previewInvitation,
  revokeInvitation,
  updateMember,
} from './team.service';

/** /api/team: the account's members and invitations (Equipe), for its owner and managers. */
export const teamRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('team', 'customer', 'manager');
  const { db, sessions, presence, config, mail } = deps;

  app.get(
    '',
    spec('The account’s people (its owner first), the plan’s room for them and the open invitations', {
      response: { 200: teamResponse },
    }),
    async (request) => listTeam(db, authed(request), (id) => presence.lastSeen(id)),
  );

  app.post(
    '/invitations',
    spec(
      `Invite someone by e-mail: a link /convite?token=… that works once, for ${INVITATION_HOURS} h (a new invitation to the same address replaces the open one)`,
      { body: createInvitationInput, response: { 200: createInvitationResponse } },
    ),
    async (request) => {
      const ctx = authed(request);
      const { invitation, token } = await inviteMember(db, ctx, request.body);
      const { mailer } = mail;
      const url = mailer.link(`/convite?token=${encodeURIComponent(token)}`);
      mailer.sendLater('team_invitation', async () => ({
        to: invitation.email,
        ...mailTemplates.teamInvitation({
          product: config.PRODUCT_NAME,
          name: invitation.name,
          inviter: ctx.member.name,
          accountName: accountNameOf(ctx.user),
          role: TEAM_ROLE_LABELS[invitation.role],
          url,
          hours: INVITATION_HOURS,
        }),
      }));
      await record(
        db,
        {
          kind: 'team_changed',
          by: ctx,
          detail: `Convite enviado a ${invitation.name} <${invitation.email}> (${TEAM_ROLE_LABELS[invitation.role].toLowerCase()})`,
        },
        { ...deps, log: request.log },
      );
      return {
        success: true as const,
        message: mailer.available ? teamMsg.invited : teamMsg.invitedNoMail,
        invitation,
        inviteUrl: url,
        emailed: mailer.available,
      };
    },
  );

  app.delete(
    '/invitations/:id',
    spec('Cancel an invitation not yet accepted: its link stops working', {
      params: invitationIdParams,
      response: { 200: okResponse },
    }),
    async (request) => {
      const ctx = authed(request);
      const row = await revokeInvitation(db, ctx, request.params.id);
      await record(
        db,
        { kind: 'team_changed', by: ctx, detail: `Convite de ${row.name} <${row.email}> cancelado` },
        { ...deps, log: request.log },
      );
      return { success: true, message: teamMsg.revoked };
    },
  );

  app.patch(
    '/:id',
    spec('Change a member’s role or access; a deactivated member’s sessions end at once, on every server', {
      params: memberIdParams,
      body: updateMemberInput,
      response: { 200: updateMemberResponse },
    }),
    async (request) => {
      const ctx = authed(request);
      const { member, before } = await updateMember(db, sessions, ctx, request.params.id, request.body);
      await record(
        db,
        { kind: 'team_changed', by: ctx, detail: describeMemberChange(before, member) },
        { ...deps, log: request.log },
      );
      return { success: true as const, message: teamMsg.updated, member };
    },
  );
};

/** The invitation's link: what it offers, and accepting it (registered under /api/auth). */
export const invitationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('auth', 'public');
  const { db, config } = deps;
  const rateLimit = {
    max: config.LOGIN_RATE_LIMIT,
    timeWindow: '1 minute',
    errorResponseBuilder: () => new AppError('RATE_LIMITED', teamMsg.rateLimited),
  };

  app.get(
    '/invitation',
    spec(
      'Who an invitation’s link invites, to which account and as what; an unknown, spent or expired link answers 404',
      { querystring: invitationQuery, response: { 200: invitationPreviewResponse } },
      { rateLimit },
    ),
    async (request) => previewInvitation(db, request.query.token),
  );

  app.post(
    '/accept-invitation',
    spec(
      'Accept an invitation: creates the member’s login (its own username and password), once',
      { body: acceptInvitationInput, response: { 200: okResponse } },
      { rateLimit },
    ),
    async (request) => {
      const { member, account } = await acceptInvitation(db, request.body);
      await record(
        db,
        {
          kind: 'team_changed',
          by: { userId: account.id, actorId: member.id },
          detail: `${member.name} entrou na equipe`,
        },
        { ...deps, log: request.log },
      );
      return { success: true, message: teamMsg.accepted };
    },
  );
};
