import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../contract/errors';
import { msg } from '../../contract/messages';
import { isBadInputError, isDatabaseUnavailable } from '../db/errors';
import { AppError } from '../errors';
import { DriverError } from '../whatsapp/driver';

function body(code: ErrorBody['code'], message: string, fieldErrors?: Record<string, string>): ErrorBody {
  return fieldErrors ? { success: false, code, message, fieldErrors } : { success: false, code, message };
}

/**
 * What the multipart reader throws, without a status, for a body it cannot read: no boundary in
 * the Content-Type, a body cut short, or one sent compressed.
 */
const MALFORMED_MULTIPART = /^Multipart: |unexpected end of multipart data/i;

/** One error handler: codes map to statuses, 5xx text is never shown, validation becomes 400 in pt-BR. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(body(error.code, error.message, error.fieldErrors));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        if (!(key in fieldErrors)) fieldErrors[key] = issue.message ?? msg.validation.invalidRequest;
      }
      const first = Object.values(fieldErrors)[0] ?? msg.validation.invalidRequest;
      return reply.status(400).send(body('VALIDATION', first, fieldErrors));
    }
    if (error.code === 'FST_ERR_RESPONSE_SERIALIZATION' && isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause?.issues }, 'response did not match its schema');
      return reply.status(500).send(body('INTERNAL', msg.generic.internal));
    }
    if (isBadInputError(error)) {
      request.log.info({ err: error }, 'input refused by the database');
      return reply.status(400).send(body('VALIDATION', msg.validation.invalidRequest));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send(body('UNAVAILABLE', msg.generic.unavailable));
    }
    if (error.statusCode === undefined && MALFORMED_MULTIPART.test(error.message)) {
      request.log.info({ err: error }, 'unreadable multipart body');
      return reply.status(400).send(body('VALIDATION', msg.validation.invalidRequest));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send(body('RATE_LIMITED', msg.auth.tooManyRequests));
    if (status === 413) return reply.status(413).send(body('PAYLOAD_TOO_LARGE', msg.generic.payloadTooLarge));
    if (status === 404) return reply.status(404).send(body('NOT_FOUND', msg.generic.notFound));
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.status(status).send(body('VALIDATION', msg.validation.invalidRequest));
    }
    if ((error as unknown) instanceof DriverError) {
      // WhatsApp refused or could not be reached: the person can act on it (reconnect, fix the number).
      request.log.warn({ err: error }, 'WhatsApp driver error');
      return reply.status(409).send(body('CONFLICT', msg.generic.whatsappRefused(error.message)));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('INTERNAL', msg.generic.internal));
  });
}
