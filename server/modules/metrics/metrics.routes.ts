import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  analyticsResponse,
  metricsResponse,
  periodQuery,
  reportResponse,
  seriesPeriodQuery,
  todayMetricsResponse,
} from '../../../contract/metrics';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { getAnalytics, getMetrics, getReport, getTodayMetrics } from './metrics.service';

/**
 * The figures of the signed-in account (definitions in contract/metrics.ts). Periods are São Paulo
 * days, `?from=YYYY-MM-DD&to=YYYY-MM-DD`, both included. The report lives here as
 * `/api/metrics/report` rather than `/api/reports`: it is these figures for a period, computed by
 * this module.
 */
export const metricsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const spec = routeSpec('metrics', 'customer', 'agent');
  app.get(
    '',
    spec('Dashboard figures (SPEC §3), for a period when given', {
      querystring: periodQuery,
      response: { 200: metricsResponse },
    }),
    async (request) => getMetrics(db, authed(request).user.id, request.query),
  );

  app.get(
    '/today',
    spec("The header: today's messages sent and delivery rate (São Paulo day)", {
      response: { 200: todayMetricsResponse },
    }),
    async (request) => getTodayMetrics(db, authed(request).user.id),
  );

  app.get(
    '/analytics',
    spec('Daily series and read rate by send hour and weekday (default: the last 30 days)', {
      querystring: seriesPeriodQuery,
      response: { 200: analyticsResponse },
    }),
    async (request) => getAnalytics(db, authed(request).user.id, request.query),
  );

  app.get(
    '/report',
    spec('The Relatórios page for a period (default: the last 30 days)', {
      querystring: seriesPeriodQuery,
      response: { 200: reportResponse },
    }),
    async (request) => getReport(db, authed(request).user.id, request.query),
  );
};
