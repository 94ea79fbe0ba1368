import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MEDIA_MAX_BYTES } from '../../../contract/message-content';
import { uploadIdParams, uploadQuery, uploadSchema, uploadsMsg, uploadUsageSchema } from '../../../contract/uploads';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { authed } from '../../plugins/access';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import { fileDisposition, openFile, saveFile, servedAs, storageUsage } from './uploads.service';

const LARGEST_FILE = Math.max(...Object.values(MEDIA_MAX_BYTES));

export const uploadsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config, media }) => {
  const spec = routeSpec('uploads', 'customer');
  app.post(
    '',
    spec(
      'Upload a file (multipart field "file"), decided by its bytes: an image (JPEG, PNG, WebP ≤ 5 MB), a document (PDF, Word, Excel, PowerPoint, TXT, CSV ≤ 100 MB), an audio (OGG/Opus, MP3, M4A/AAC, AMR ≤ 16 MB; `voice=true`: a voice note, WebM/Opus remuxed to OGG), a video (MP4/3GP, H.264 + AAC ≤ 16 MB) or a sticker (`kind=sticker`, WebP ≤ 500 KB)',
      { consumes: ['multipart/form-data'], querystring: uploadQuery, response: { 200: uploadSchema } },
      // An agent attaches files to replies in Conversas; the account's quota holds as for anyone.
      forAgents,
    ),
    async (request) => {
      const { user } = authed(request);
      const part = request.isMultipart() ? await request.file({ limits: { fileSize: LARGEST_FILE } }) : undefined;
      if (part?.fieldname !== 'file') throw new AppError('VALIDATION', uploadsMsg.noFile);
      try {
        return await saveFile(
          db,
          media.store,
          user.id,
          { fileName: part.filename, stream: part.file, truncated: () => part.file.truncated },
          {
            quotaMb: config.UPLOADS_QUOTA_MB,
            voice: request.query.voice,
            sticker: request.query.kind === 'sticker',
            imageOnly: request.query.kind === 'image',
          },
        );
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('PAYLOAD_TOO_LARGE', uploadsMsg.fileTooLarge);
        }
        throw err;
      }
    },
  );

  app.get(
    '/usage',
    spec(
      'The bytes the account’s files take (uploads of every kind; files contacts sent are not counted) and its plan’s room for them',
      {
        response: { 200: uploadUsageSchema },
      },
    ),
    async (request) => storageUsage(db, authed(request).user.id, config.UPLOADS_QUOTA_MB),
  );

  app.get(
    '/:id',
    spec(
      'One of the account’s files (an upload, or a file a contact sent), to its owner only (another account gets 404)',
      { params: uploadIdParams },
      forAgents,
    ),
    async (request, reply) => {
      const upload = await openFile(db, media.store, authed(request).user.id, request.params.id);
      if (!upload) throw new AppError('NOT_FOUND', uploadsMsg.notFound);
      const served = servedAs(upload.mimeType);
      return reply
        .header('content-type', served.contentType)
        .header('content-length', upload.size)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', fileDisposition(upload.fileName, served.inline ? 'inline' : 'attachment'))
        .header('cache-control', 'private')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(upload.body);
    },
  );
};
