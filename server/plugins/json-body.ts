import type { FastifyInstance } from 'fastify';
import { msg } from '../../contract/messages';
import { AppError } from '../errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies must be valid UTF-8. Node's default decoding turns invalid bytes into U+FFFD, which
 * would be stored as if the user had typed them; here such a body is refused with a 400 instead.
 * Parsing itself is Fastify's (prototype-poisoning keys refused).
 */
export function registerStrictJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(new AppError('VALIDATION', msg.validation.invalidEncoding), undefined);
    }
    parseJson(request, text, (err, value) => {
      if (err) return done(new AppError('VALIDATION', msg.validation.invalidRequest), undefined);
      done(null, value);
    });
  });
}
