import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BACKUP_MAX_FILE_MB, BACKUP_MAX_UPLOAD_MB, backupMsg, restoreResult } from '../../../contract/backup';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { attachmentHeader, datedName } from '../../lib/download';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { exportBackup, restoreBackup } from './backup.service';

export const backupRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, state, chatbot, config, media }) => {
  const spec = routeSpec('backup', 'customer');
  app.get(
    '',
    spec(
      "The account's data as one JSON file (format disparo-backup, version 1): contacts, groups, saved messages, campaigns with recipients, bot, settings, and the files they use (media, base64: uploaded images, and documents, audio and video of the media store); never a secret",
      {},
    ),
    async (request, reply) => {
      const chunks = await exportBackup(db, authed(request).user.id, media.store);
      return reply
        .header('content-disposition', attachmentHeader(datedName('disparo-backup', 'json')))
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(Readable.from(chunks, { objectMode: false }));
    },
  );

  app.post(
    '/restore',
    spec(
      'Merge a backup file (multipart field "file") into the account in one transaction: contacts by phone, groups by name, rules by keyword, images and files as new uploads; an invalid file changes nothing; warnings lists what could not be brought back',
      { consumes: ['multipart/form-data'], response: { 200: restoreResult } },
      // Restoring merges a whole account: its owner's decision alone.
      { team: 'owner' },
    ),
    async (request) => {
      const { user } = authed(request);
      const part = request.isMultipart()
        ? // The data and its images; the data alone is held to BACKUP_MAX_FILE_MB once they are apart.
          await request.file({ limits: { fileSize: BACKUP_MAX_UPLOAD_MB * 1024 * 1024 } })
        : undefined;
      if (part?.fieldname !== 'file') throw new AppError('VALIDATION', backupMsg.noFile);
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('PAYLOAD_TOO_LARGE', backupMsg.fileTooLarge(BACKUP_MAX_FILE_MB));
        }
        throw err;
      }
      // The reader cuts a file at the limit without an error when a chunk ends exactly on it.
      if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', backupMsg.fileTooLarge(BACKUP_MAX_FILE_MB));
      const result = await restoreBackup(db, state, user, data, {
        aiAvailable: chatbot.ai.available,
        uploadsQuotaMb: config.UPLOADS_QUOTA_MB,
        outbound: { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE },
        store: media.store,
      });
      chatbot.configChanged(user.id);
      return result;
    },
  );
};
