import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminCleanupResponse,
  adminJobIdParams,
  adminJobRetryResponse,
  adminJobsMsg,
  adminJobsResponse,
  adminUpdateUserInput,
  adminUpdateUserResponse,
  adminUserIdParams,
  adminUserList,
} from '../../../contract/admin';
import { msg } from '../../../contract/messages';
import { okResponse } from '../../../contract/responses';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { toPublicUser } from '../auth';
import { cleanupExpiredDemos, deleteUser, listUsers, updateUser } from './admin.service';
import { listJobs, retryJob } from './admin-jobs.service';

export const adminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, sessions, mail, jobs }) => {
  const spec = routeSpec('admin', 'admin');

  app.get('/users', spec('All accounts', { response: { 200: adminUserList } }), async (request) =>
    (await listUsers(db, authed(request).user)).map((u) => toPublicUser(u)),
  );

  app.patch(
    '/users/:id',
    spec('Approve, deactivate or change the plan of an account', {
      params: adminUserIdParams,
      body: adminUpdateUserInput,
      response: { 200: adminUpdateUserResponse },
    }),
    async (request) => {
      const { user, approved } = await updateUser(db, sessions, authed(request).user, request.params.id, request.body);
      // The account's owner hears of the approval by e-mail, with the login link.
      if (approved) mail.notices.accountApproved(user.id);
      return { success: true as const, message: msg.admin.updated, user: toPublicUser(user) };
    },
  );

  app.delete(
    '/users/:id',
    spec('Delete an account and its data', { params: adminUserIdParams, response: { 200: okResponse } }),
    async (request) => {
      await deleteUser(db, sessions, authed(request).user, request.params.id);
      return { success: true, message: msg.admin.deleted };
    },
  );

  app.post(
    '/cleanup',
    spec('Delete expired demo accounts', { response: { 200: adminCleanupResponse } }),
    async (request) => ({
      success: true as const,
      deletedCount: await cleanupExpiredDemos(db, sessions, authed(request).user),
    }),
  );

  app.get(
    '/jobs',
    spec('Background jobs: counts by name and state, and the latest dead ones', {
      response: { 200: adminJobsResponse },
    }),
    async (request) => listJobs(db, authed(request).user),
  );

  app.post(
    '/jobs/:id/retry',
    spec('Put a dead job back in the queue with its attempts reset', {
      params: adminJobIdParams,
      response: { 200: adminJobRetryResponse },
    }),
    async (request) => {
      await retryJob(db, jobs, authed(request).user, request.params.id);
      return { success: true as const, message: adminJobsMsg.retried };
    },
  );
};
