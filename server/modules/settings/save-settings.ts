import type {
  ChangePasswordInput,
  NotificationSettings,
  Profile,
  UpdateProfileInput,
  UpdateWhatsappSettingsInput,
  WhatsappSettings,
} from '../../../contract/settings';
import type { AppDeps } from '../../deps';
import type { AccountContext } from '../../plugins/account-context';
import { type Recording, record } from '../../records/events';
import type { SessionStore } from '../../sessions/session-store';
import { changePassword, updateNotificationSettings, updateProfile, updateWhatsappSettings } from './settings.service';

type SettingsDeps = Recording & { sessions: SessionStore };

export async function saveProfile(
  deps: SettingsDeps,
  ctx: AccountContext,
  input: UpdateProfileInput,
): Promise<Profile> {
  // The signed-in person's own row: a team member edits their own name and e-mail, never the account's.
  const saved = await updateProfile(deps.db, deps.sessions, ctx.member.id, input);
  await record(deps.db, { kind: 'settings_changed', by: ctx, section: 'profile' }, deps);
  return saved;
}

export async function saveNotificationSettings(
  deps: Recording,
  ctx: AccountContext,
  input: NotificationSettings,
): Promise<NotificationSettings> {
  const saved = await updateNotificationSettings(deps.db, ctx.userId, input);
  await record(deps.db, { kind: 'settings_changed', by: ctx, section: 'notifications' }, deps);
  return saved;
}

/** Saves the sending settings; a running or waiting campaign applies them to its next message (record announces it). */
export async function saveSendingSettings(
  deps: Recording & Pick<AppDeps, 'connections'>,
  ctx: AccountContext,
  input: UpdateWhatsappSettingsInput,
): Promise<WhatsappSettings> {
  const saved = await updateWhatsappSettings(deps.db, ctx.userId, input);
  // The channel chosen here makes that kind's primary number the account's default.
  if (input.channel) await deps.connections.directory.channelChosen(ctx.userId, input.channel);
  await record(deps.db, { kind: 'settings_changed', by: ctx, section: 'whatsapp' }, deps);
  return saved;
}

/** Changes the password; every other session of the account ends. */
export async function changeOwnPassword(
  deps: SettingsDeps,
  ctx: AccountContext,
  input: { currentToken: string | null; password: ChangePasswordInput },
): Promise<void> {
  // The signed-in person's own password: a team member's, never the account owner's.
  await changePassword(deps.db, deps.sessions, ctx.member.id, input.currentToken, input.password);
  await record(deps.db, { kind: 'settings_changed', by: ctx, section: 'password' }, deps);
}
