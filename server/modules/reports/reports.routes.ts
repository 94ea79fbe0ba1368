import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { seriesPeriodQuery } from '../../../contract/metrics';
import type { AppDeps } from '../../deps';
import { attachmentHeader } from '../../lib/download';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { getReport } from '../metrics';
import { renderReportPdf } from './report-pdf';

/** 'Exportar PDF' of the Relatórios page: the same report (GET /api/metrics/report) as a PDF file. */
export const reportsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  const spec = routeSpec('metrics', 'customer', 'agent');
  app.get(
    '/pdf',
    spec('The Relatórios page for a period as a PDF download (default: the last 30 days)', {
      querystring: seriesPeriodQuery,
    }),
    async (request, reply) => {
      const { user } = authed(request);
      const report = await getReport(db, user.id, request.query);
      const pdf = await renderReportPdf(report, {
        productName: config.PRODUCT_NAME,
        accountName: user.company || user.name,
        generatedAt: new Date(),
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', attachmentHeader(`relatorio-${report.period.from}-a-${report.period.to}.pdf`))
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
};
