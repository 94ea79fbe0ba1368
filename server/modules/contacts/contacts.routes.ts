import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contactBulkInput,
  contactBulkResponse,
  contactExportQuery,
  contactIdParams,
  contactInput,
  contactListQuery,
  contactListResponse,
  contactMutationResponse,
  contactsMsg,
  contactTagsResponse,
  fileFormatQuery,
  IMPORT_MAX_FILE_MB,
  importResult,
} from '../../../contract/contacts';
import { okResponse } from '../../../contract/responses';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { datedName, sendTable } from '../../lib/download';
import { authed } from '../../plugins/access';
import { forAgents, routeSpec } from '../../plugins/route-spec';
import {
  bulkContacts,
  createContact,
  deleteContact,
  listAllContacts,
  listContactsPage,
  listContactTags,
  updateContact,
} from './contacts.service';
import { TEMPLATE_TABLE } from './contacts-export';
import { fileTooLarge, importContacts } from './contacts-import.service';
import { exportContacts } from './export-contacts';

export const contactsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, state }) => {
  const spec = routeSpec('contacts', 'customer');
  app.get(
    '/export',
    spec(
      'The contacts as CSV or XLSX — all, or with q and tag those the list shows (cells neutralised against formula injection)',
      { querystring: contactExportQuery },
      forAgents,
    ),
    async (request, reply) => {
      const { format, q, tag } = request.query;
      const filename = datedName('contatos', format);
      const table = await exportContacts({ db, state, log: request.log }, authed(request), { file: filename, q, tag });
      return sendTable(reply, { table, format, filename, sheet: 'Contatos' });
    },
  );

  app.get(
    '/import-template',
    spec('Import template: Nome, Telefone, Email, Tags', { querystring: fileFormatQuery }),
    async (request, reply) =>
      sendTable(reply, {
        table: TEMPLATE_TABLE,
        format: request.query.format,
        filename: `modelo-contatos.${request.query.format}`,
        sheet: 'Contatos',
      }),
  );

  app.post(
    '/import',
    spec('Import contacts from a CSV, TXT, XLS or XLSX file (multipart field "file"), all or nothing', {
      consumes: ['multipart/form-data'],
      response: { 200: importResult },
    }),
    async (request) => {
      const { user } = authed(request);
      const part = request.isMultipart() ? await request.file() : undefined;
      if (part?.fieldname !== 'file') throw new AppError('VALIDATION', contactsMsg.noFile);
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(IMPORT_MAX_FILE_MB);
        throw err;
      }
      // The reader cuts a file at the limit without an error when a chunk ends exactly on it.
      if (part.file.truncated) throw fileTooLarge(IMPORT_MAX_FILE_MB);
      return importContacts(db, state, user, { filename: part.filename, data }, request.log);
    },
  );

  app.get(
    '',
    spec(
      'Contacts: the whole list, or with q (name, phone or tag), tag (exact), page or limit one page of a server-side search',
      { querystring: contactListQuery, response: { 200: contactListResponse } },
      forAgents,
    ),
    async (request) => {
      const { user } = authed(request);
      const { q, page, limit, tag } = request.query;
      if (q === undefined && page === undefined && limit === undefined && tag === undefined) {
        return listAllContacts(db, user.id);
      }
      return listContactsPage(db, state, user, { q, page, limit, tag });
    },
  );

  app.get(
    '/tags',
    spec(
      'The account’s tags with how many contacts carry each, most used first',
      { response: { 200: contactTagsResponse } },
      forAgents,
    ),
    async (request) => listContactTags(db, state, authed(request).user.id),
  );

  app.post(
    '/bulk',
    spec(
      'Add a tag to, remove a tag from, or delete up to 1,000 of the account’s contacts by id (other ids are left alone)',
      { body: contactBulkInput, response: { 200: contactBulkResponse } },
    ),
    async (request) => ({
      success: true as const,
      ...(await bulkContacts(db, state, authed(request).user.id, request.body)),
    }),
  );

  app.post(
    '',
    spec(
      'Create a contact (phone normalised to E.164; plan limit enforced)',
      { body: contactInput, response: { 200: contactMutationResponse } },
      forAgents,
    ),
    async (request) => ({
      success: true as const,
      message: contactsMsg.created,
      contact: await createContact(db, state, authed(request).user, request.body),
    }),
  );

  app.put(
    '/:id',
    spec(
      'Update a contact',
      { params: contactIdParams, body: contactInput, response: { 200: contactMutationResponse } },
      forAgents,
    ),
    async (request) => ({
      success: true as const,
      message: contactsMsg.updated,
      contact: await updateContact(db, state, authed(request).user.id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    spec('Delete a contact', { params: contactIdParams, response: { 200: okResponse } }),
    async (request) => {
      await deleteContact(db, state, authed(request).user.id, request.params.id);
      return { success: true, message: contactsMsg.deleted };
    },
  );
};
