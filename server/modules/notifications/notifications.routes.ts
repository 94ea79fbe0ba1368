import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  markReadInput,
  markReadResponse,
  notificationListQuery,
  notificationListResponse,
  unreadCountResponse,
} from '../../../contract/notifications';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { countUnread, listNotifications, markRead } from './notifications.service';

/**
 * The header's notifications. Every signed-in account has its own (an account awaiting approval
 * too): each route reads or changes only the caller's rows.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const spec = routeSpec('notifications', 'session');
  app.get(
    '',
    spec('The newest notifications of the signed-in account, with its unread count', {
      querystring: notificationListQuery,
      response: { 200: notificationListResponse },
    }),
    async (request) => listNotifications(db, authed(request), request.query.limit),
  );

  app.get(
    '/unread-count',
    spec('How many notifications are unread (the bell polls it every 30 s)', {
      response: { 200: unreadCountResponse },
    }),
    async (request) => ({ unread: await countUnread(db, authed(request)) }),
  );

  app.post(
    '/read',
    spec('Mark notifications read: the given ids, or all when none are given', {
      body: markReadInput,
      response: { 200: markReadResponse },
    }),
    async (request) => markRead(db, authed(request), request.body?.ids),
  );
};
