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
  teamDirectoryResponse,
  teamMsg,
  teamResponse,
  updateMemberInput,
  updateMemberResponse,
} from '../../../contract/team';
import { teamSettingsInput, teamSettingsResponse, twoFactorMsg } from '../../../contract/two-factor';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { authed } from '../../plugins/access';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import {
  cancelInvitation,
  changeMember,
  changeTeamSettings,
  joinTeam,
  resetTwoFactorOf,
  sendInvitation,
} from './manage-team';
import { listTeam, previewInvitation, teamDirectory } from './team.service';

/** /api/team: the account's members and invitations (Equipe), for its owner and managers. */
export const teamRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('team', 'customer', 'manager');
  const { db, presence } = deps;

  app.get(
    '',
    spec('The account’s people (its owner first), the plan’s room for them and the open invitations', {
      response: { 200: teamResponse },
    }),
    async (request) => listTeam(db, authed(request), (id) => presence.lastSeen(id)),
  );

  app.get(
    '/directory',
    spec(
      'The account’s active people by name (the owner first), for every role: whom a conversation can be assigned to',
      { response: { 200: teamDirectoryResponse } },
      forAgents,
    ),
    async (request) => teamDirectory(db, authed(request)),
  );

  app.post(
    '/invitations',
    spec(
      `Invite someone by e-mail: a link /convite?token=… that works once, for ${INVITATION_HOURS} h (a new invitation to the same address replaces the open one)`,
      { body: createInvitationInput, response: { 200: createInvitationResponse } },
    ),
    async (request) => {
      const sent = await sendInvitation({ ...deps, log: request.log }, authed(request), request.body);
      return {
        success: true as const,
        message: sent.emailed ? teamMsg.invited : teamMsg.invitedNoMail,
        invitation: sent.invitation,
        inviteUrl: sent.url,
        emailed: sent.emailed,
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
      await cancelInvitation({ ...deps, log: request.log }, authed(request), request.params.id);
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
      const member = await changeMember(
        { ...deps, log: request.log },
        authed(request),
        request.params.id,
        request.body,
      );
      return { success: true as const, message: teamMsg.updated, member };
    },
  );

  app.post(
    '/:id/reset-two-factor',
    spec(
      'Take a member’s two-factor sign-in away (a lost phone): their authenticator and recovery codes stop working, their sessions end on every server, and they are told by e-mail',
      { params: memberIdParams, response: { 200: updateMemberResponse } },
    ),
    async (request) => {
      const member = await resetTwoFactorOf({ ...deps, log: request.log }, authed(request), request.params.id);
      return { success: true as const, message: teamMsg.twoFactorReset(member.name), member };
    },
  );

  app.put(
    '/settings',
    spec(
      'Require two-factor sign-in of every login of the account (the owner only; the owner turns it on first)',
      { body: teamSettingsInput, response: { 200: teamSettingsResponse } },
      { team: 'owner' },
    ),
    async (request) => {
      const { requireTwoFactor } = request.body;
      await changeTeamSettings({ ...deps, log: request.log }, authed(request), requireTwoFactor);
      return {
        success: true as const,
        message: requireTwoFactor ? twoFactorMsg.requireOn : twoFactorMsg.requireOff,
        requireTwoFactor,
      };
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
      await joinTeam({ ...deps, log: request.log }, request.body);
      return { success: true, message: teamMsg.accepted };
    },
  );
};
