import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  groupIdParams,
  groupInput,
  groupList,
  groupMutationResponse,
  groupSyncResponse,
  groupsMsg,
} from '../../../contract/contacts';
import { okResponse } from '../../../contract/responses';
import type { AppDeps } from '../../deps';
import { sendTable } from '../../lib/download';
import { authed } from '../../plugins/access';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import { createGroup, deleteGroup, listGroups, updateGroup } from './groups.service';
import { exportGroupMembers, importWhatsappGroups } from './whatsapp-groups';

export const groupsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('groups', 'customer');
  const { db } = deps;
  app.get('', spec('Groups, by name', { response: { 200: groupList } }, forAgents), async (request) =>
    listGroups(db, authed(request).user.id),
  );

  app.post(
    '',
    spec('Create a group', { body: groupInput, response: { 200: groupMutationResponse } }),
    async (request) => ({
      success: true as const,
      message: groupsMsg.created,
      group: await createGroup(db, authed(request).user.id, request.body),
    }),
  );

  app.put(
    '/:id',
    spec('Update a group', { params: groupIdParams, body: groupInput, response: { 200: groupMutationResponse } }),
    async (request) => ({
      success: true as const,
      message: groupsMsg.updated,
      group: await updateGroup(db, authed(request).user.id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    spec('Delete a group', { params: groupIdParams, response: { 200: okResponse } }),
    async (request) => {
      await deleteGroup(db, authed(request).user.id, request.params.id);
      return { success: true, message: groupsMsg.deleted };
    },
  );

  app.post(
    '/sync',
    spec('Import the groups of the connected WhatsApp number', { response: { 200: groupSyncResponse } }),
    async (request) => {
      const { created, updated } = await importWhatsappGroups(deps, authed(request));
      return { success: true as const, message: groupsMsg.syncDone(created, updated), created, updated };
    },
  );

  app.get(
    '/:id/members',
    spec('The real participants of a WhatsApp group, as CSV', { params: groupIdParams }),
    async (request, reply) => {
      const { name, table } = await exportGroupMembers(deps, authed(request), request.params.id);
      return sendTable(reply, { table, format: 'csv', filename: `membros-${name}.csv`, sheet: 'Membros' });
    },
  );
};
