import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse } from '../../../contract/health';
import { maskEmail, publicConfigResponse } from '../../../contract/public-config';
import type { AppDeps } from '../../deps';

export const systemRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config, mail }) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], summary: 'Liveness once the database is ready', response: { 200: healthResponse } },
    },
    async () => ({ ok: true as const }),
  );

  const publicConfig = {
    productName: config.PRODUCT_NAME,
    supportWhatsapp: config.SUPPORT_WHATSAPP,
    supportEmailMasked: maskEmail(config.SUPPORT_EMAIL),
    paymentUrls: {
      basic: config.PAYMENT_URL_BASIC,
      professional: config.PAYMENT_URL_PROFESSIONAL,
      enterprise: config.PAYMENT_URL_ENTERPRISE,
      premium: config.PAYMENT_URL_PREMIUM,
    },
    whatsappDriver: config.WHATSAPP_DRIVER,
    emailAvailable: mail.mailer.available,
  };
  app.get(
    '/public-config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Product name, support contacts and payment links',
        response: { 200: publicConfigResponse },
      },
    },
    async () => publicConfig,
  );
};
