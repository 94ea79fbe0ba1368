import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { queueIdParams, queueInput, queueList, queueMutationResponse, queuesMsg } from '../../../contract/queues';
import { okResponse } from '../../../contract/responses';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import { createQueue, deleteQueue, listQueues, updateQueue } from './queues.service';

/** /api/queues: the team's queues (Filas). Everyone reads them; the owner and managers keep them. */
export const queuesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const spec = routeSpec('queues', 'customer', 'manager');

  app.get(
    '',
    spec(
      'The account’s queues by name, with their numbers, people, hours and open conversations',
      { response: { 200: queueList } },
      forAgents,
    ),
    async (request) => ({ queues: await listQueues(db, authed(request).userId) }),
  );

  app.post(
    '',
    spec('Create a queue (a name unique in the account)', {
      body: queueInput,
      response: { 200: queueMutationResponse },
    }),
    async (request) => ({
      success: true as const,
      message: queuesMsg.created,
      queue: await createQueue(db, authed(request).userId, request.body),
    }),
  );

  app.put(
    '/:id',
    spec('Replace a queue', { params: queueIdParams, body: queueInput, response: { 200: queueMutationResponse } }),
    async (request) => ({
      success: true as const,
      message: queuesMsg.updated,
      queue: await updateQueue(db, authed(request).userId, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    spec('Delete a queue; its conversations stay, in no queue', {
      params: queueIdParams,
      response: { 200: okResponse },
    }),
    async (request) => {
      await deleteQueue(db, authed(request).userId, request.params.id);
      return { success: true, message: queuesMsg.deleted };
    },
  );
};
