import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordInput,
  notificationSettingsSchema,
  profileSchema,
  settingsMsg,
  settingsSavedResponse,
  updateProfileInput,
  updateWhatsappSettingsInput,
  whatsappSettingsSchema,
} from '../../../contract/settings';
import type { AppDeps } from '../../deps';
import { authed } from '../../plugins/access';
import { routeSpec } from '../../plugins/route-spec';
import { changeOwnPassword, saveNotificationSettings, saveProfile, saveSendingSettings } from './save-settings';
import { getNotificationSettings, getProfile, getWhatsappSettings } from './settings.service';

/** /api/settings/*: the profile (any signed-in account) and the settings the server obeys (customers). */
export const settingsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const tags = ['settings'];

  app.get(
    '/profile',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'Profile of the signed-in account', response: { 200: profileSchema } },
    },
    // The signed-in person's own row: a team member's, not the account's.
    async (request) => getProfile(db, authed(request).member.id),
  );

  app.put(
    '/profile',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Save name, e-mail, phone and company',
        body: updateProfileInput,
        response: { 200: profileSchema },
      },
    },
    async (request) => saveProfile({ ...deps, log: request.log }, authed(request), request.body),
  );

  app.get(
    '/notifications',
    {
      config: { access: 'customer' },
      schema: { tags, summary: 'Notification preferences', response: { 200: notificationSettingsSchema } },
    },
    async (request) => getNotificationSettings(db, authed(request).user.id),
  );

  app.put(
    '/notifications',
    {
      config: { access: 'customer' },
      schema: {
        tags,
        summary: 'Save the five notification preferences',
        body: notificationSettingsSchema,
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request) => saveNotificationSettings({ ...deps, log: request.log }, authed(request), request.body),
  );

  app.get(
    '/whatsapp',
    {
      config: { access: 'customer' },
      schema: {
        tags,
        summary: 'Sending settings: pacing, daily cap, business hours, channel',
        response: { 200: whatsappSettingsSchema },
      },
    },
    async (request) => getWhatsappSettings(db, authed(request).user.id),
  );

  app.put(
    '/whatsapp',
    {
      config: { access: 'customer' },
      schema: {
        tags,
        summary: 'Save the sending settings',
        body: updateWhatsappSettingsInput,
        response: { 200: whatsappSettingsSchema },
      },
    },
    async (request) => saveSendingSettings({ ...deps, log: request.log }, authed(request), request.body),
  );
};

/** POST /api/auth/change-password: registered under /api/auth next to login and logout. */
export const changePasswordRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const spec = routeSpec('auth', 'session');
  app.post(
    '/change-password',
    spec('Change the password; every other session of the account ends', {
      body: changePasswordInput,
      response: { 200: settingsSavedResponse },
    }),
    async (request) => {
      await changeOwnPassword({ ...deps, log: request.log }, authed(request), {
        currentToken: request.sessionToken,
        password: request.body,
      });
      return { success: true as const, message: settingsMsg.passwordChanged };
    },
  );
};
