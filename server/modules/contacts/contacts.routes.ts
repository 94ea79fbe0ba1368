import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okResponse } from '../../../contract/auth';
import {
  contactIdParams,
  contactInput,
  contactListQuery,
  contactListResponse,
  contactMutationResponse,
  contactsMsg,
} from '../../../contract/contacts';
import type { AppDeps } from '../../app';
import { authed } from '../../plugins/access';
import { createContact, deleteContact, listAllContacts, listContactsPage, updateContact } from './contacts.service';

export const contactsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Contacts: the whole list, or with q, page or limit one page of a server-side search',
        querystring: contactListQuery,
        response: { 200: contactListResponse },
      },
    },
    async (request) => {
      const { user } = authed(request);
      const { q, page, limit } = request.query;
      if (q === undefined && page === undefined && limit === undefined) return listAllContacts(db, user.id);
      return listContactsPage(db, user, { q, page, limit });
    },
  );

  app.post(
    '',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Create a contact (phone normalised to E.164; plan limit enforced)',
        body: contactInput,
        response: { 200: contactMutationResponse },
      },
    },
    async (request) => ({
      success: true as const,
      message: contactsMsg.created,
      contact: await createContact(db, authed(request).user, request.body),
    }),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Update a contact',
        params: contactIdParams,
        body: contactInput,
        response: { 200: contactMutationResponse },
      },
    },
    async (request) => ({
      success: true as const,
      message: contactsMsg.updated,
      contact: await updateContact(db, authed(request).user.id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Delete a contact',
        params: contactIdParams,
        response: { 200: okResponse },
      },
    },
    async (request) => {
      await deleteContact(db, authed(request).user.id, request.params.id);
      return { success: true, message: contactsMsg.deleted };
    },
  );
};
