import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { verifyListResponse } from '../../../contract/verification';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { ContactVerifier, type VerificationOptions } from './verification.service';

export const verificationRoutes: FastifyPluginAsyncZod<AppDeps & { verification?: VerificationOptions }> = async (
  app,
  { db, drivers, jobs, verification },
) => {
  const verifier = new ContactVerifier(db, drivers, jobs, verification);

  app.get(
    '/verify-list',
    {
      config: { access: 'customer' },
      schema: {
        tags: ['contacts'],
        summary: 'Start or continue the WhatsApp check of every contact; answers totals, list and progress at once',
        response: { 200: verifyListResponse },
      },
    },
    async (request) => verifier.verifyList(authed(request).user.id),
  );
};
