import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activityPage, activityQuery } from '../../../contract/activity';
import { activeUsersResponse, onlineCountResponse } from '../../../contract/presence';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { getOnlineCount, listActiveUsers, listActivity } from './presence.service';

/** Online users and the activity log (Verificação). Registered under /api. */
export const presenceRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, presence }) => {
  const spec = routeSpec('presence', 'customer', 'agent');
  presence.start();
  app.addHook('onClose', () => presence.stop());

  app.get(
    '/users/online-count',
    spec(
      'Online now (a request in the last 2 min), offline recently (24 h) and their sum; platform-wide for admins, the own account otherwise',
      { response: { 200: onlineCountResponse } },
    ),
    async (request) => getOnlineCount(db, presence, authed(request)),
  );

  app.get(
    '/users/active',
    spec('Accounts active in the last 24 h, newest first; platform-wide for admins, the own account otherwise', {
      response: { 200: activeUsersResponse },
    }),
    async (request) => listActiveUsers(db, presence, authed(request)),
  );

  app.get(
    '/activity',
    spec('The account’s activity log, newest first, paged; admins may ask for any account (userId) or all', {
      querystring: activityQuery,
      response: { 200: activityPage },
    }),
    async (request) => listActivity(db, authed(request), request.query),
  );
};
