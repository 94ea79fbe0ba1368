import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { settingsSections } from '../../../contract/activity';
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
import { recordActivity } from '../../records/activity';
import {
  changePassword,
  getNotificationSettings,
  getProfile,
  getWhatsappSettings,
  updateNotificationSettings,
  updateProfile,
  updateWhatsappSettings,
} from './settings.service';

/** /api/settings/*: the profile (any signed-in account) and the settings the server obeys (customers). */
export const settingsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, sessions, sending, connections }) => {
  const tags = ['settings'];

  app.get(
    '/profile',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'Profile of the signed-in account', response: { 200: profileSchema } },
    },
    async (request) => getProfile(db, authed(request).user.id),
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
    async (request) => {
      const userId = authed(request).user.id;
      const saved = await updateProfile(db, sessions, userId, request.body);
      await recordActivity(db, request.log, {
        userId,
        actorId: userId,
        kind: 'settings_changed',
        detail: settingsSections.profile,
      });
      return saved;
    },
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
    async (request) => {
      const userId = authed(request).user.id;
      const saved = await updateNotificationSettings(db, userId, request.body);
      await recordActivity(db, request.log, {
        userId,
        actorId: userId,
        kind: 'settings_changed',
        detail: settingsSections.notifications,
      });
      return saved;
    },
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
    async (request) => {
      const userId = authed(request).user.id;
      const saved = await updateWhatsappSettings(db, userId, request.body);
      // The channel chosen here makes that kind's primary number the account's default.
      if (request.body.channel) await connections.directory.channelChosen(userId, request.body.channel);
      // A running or waiting campaign applies them to its next message, on whichever process sends it.
      sending.settingsChanged(userId);
      await recordActivity(db, request.log, {
        userId,
        actorId: userId,
        kind: 'settings_changed',
        detail: settingsSections.whatsapp,
      });
      return saved;
    },
  );
};

/** POST /api/auth/change-password: registered under /api/auth next to login and logout. */
export const changePasswordRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, sessions }) => {
  app.post(
    '/change-password',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'Change the password; every other session of the account ends',
        body: changePasswordInput,
        response: { 200: settingsSavedResponse },
      },
    },
    async (request) => {
      const userId = authed(request).user.id;
      await changePassword(db, sessions, userId, request.sessionToken, request.body);
      await recordActivity(db, request.log, {
        userId,
        actorId: userId,
        kind: 'settings_changed',
        detail: settingsSections.password,
      });
      return { success: true as const, message: settingsMsg.passwordChanged };
    },
  );
};
