import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { UPLOAD_MAX_BYTES, uploadIdParams, uploadSchema, uploadsMsg } from '../../../contract/uploads';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { fileDisposition, openFile, saveUpload, servedAs } from './uploads.service';

export const uploadsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config, media }) => {
  const spec = routeSpec('uploads', 'customer');
  app.post(
    '',
    spec('Upload an image (multipart field "file"; JPEG, PNG or WebP by its bytes, at most 5 MB)', {
      consumes: ['multipart/form-data'],
      response: { 200: uploadSchema },
    }),
    async (request) => {
      const { user } = authed(request);
      const part = request.isMultipart() ? await request.file({ limits: { fileSize: UPLOAD_MAX_BYTES } }) : undefined;
      if (part?.fieldname !== 'file') throw new AppError('VALIDATION', uploadsMsg.noFile);
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('PAYLOAD_TOO_LARGE', uploadsMsg.tooLarge);
        }
        throw err;
      }
      // The reader cuts a file at the limit without an error when a chunk ends exactly on it.
      if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', uploadsMsg.tooLarge);
      return saveUpload(db, user.id, { fileName: part.filename, data }, { quotaMb: config.UPLOADS_QUOTA_MB });
    },
  );

  app.get(
    '/:id',
    spec(
      'One of the account’s files (an upload, or a file a contact sent), to its owner only (another account gets 404)',
      {
        params: uploadIdParams,
      },
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
