import { describe, expect, it } from 'vitest';
import {
  type AccountSendingSettings,
  type ConnectionSettingsFormValues,
  connectionSettingsForm,
  connectionSettingsFormValues,
} from './connection-settings-form';
import { connectionSettingsSchema } from './connections';
import { settingsMsg } from './settings';

const account: AccountSendingSettings = {
  messageDelay: 5,
  dailyLimit: 1000,
  respectBusinessHours: true,
  businessStart: '09:00',
  businessEnd: '18:00',
};

const allAccount = connectionSettingsFormValues({}, account);

function errorsOf(values: ConnectionSettingsFormValues, personal = true): Record<string, string> {
  const result = connectionSettingsForm({ personal, account }).safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('connectionSettingsFormValues', () => {
  it('marks every unset field as the account’s, numbers empty and the rest showing the account’s', () => {
    expect(allAccount).toEqual({
      useAccount: {
        messageDelay: true,
        dailyLimit: true,
        respectBusinessHours: true,
        businessStart: true,
        businessEnd: true,
        warmup: true,
      },
      messageDelay: undefined,
      dailyLimit: undefined,
      respectBusinessHours: true,
      businessStart: '09:00',
      businessEnd: '18:00',
      warmup: true,
    });
  });

  it('keeps the number’s own values', () => {
    const values = connectionSettingsFormValues({ dailyLimit: 250, warmup: false, businessEnd: null }, account);
    expect(values.useAccount).toMatchObject({ dailyLimit: false, warmup: false, businessEnd: true });
    expect(values).toMatchObject({ dailyLimit: 250, warmup: false, businessEnd: '18:00' });
  });
});

describe('connectionSettingsForm', () => {
  it('sends null for every field the account decides (and no warm-up for a Cloud API number)', () => {
    const personal = connectionSettingsForm({ personal: true, account }).parse(allAccount);
    expect(personal).toEqual({
      messageDelay: null,
      dailyLimit: null,
      respectBusinessHours: null,
      businessStart: null,
      businessEnd: null,
      warmup: null,
    });
    const cloud = connectionSettingsForm({ personal: false, account }).parse(allAccount);
    expect(cloud).not.toHaveProperty('warmup');
    expect(connectionSettingsSchema.safeParse(personal).success).toBe(true);
  });

  it('sends the number’s own values, which the API accepts', () => {
    const values: ConnectionSettingsFormValues = {
      ...allAccount,
      useAccount: { ...allAccount.useAccount, dailyLimit: false, messageDelay: false, warmup: false },
      dailyLimit: 250,
      messageDelay: 10,
      warmup: false,
    };
    const settings = connectionSettingsForm({ personal: true, account }).parse(values);
    expect(settings).toMatchObject({ dailyLimit: 250, messageDelay: 10, warmup: false, businessStart: null });
    expect(connectionSettingsSchema.safeParse(settings).success).toBe(true);
  });

  it('checks own values with the account settings’ messages, and ignores those the account decides', () => {
    const own = { ...allAccount.useAccount, dailyLimit: false, messageDelay: false };
    expect(errorsOf({ ...allAccount, useAccount: own, dailyLimit: Number.NaN, messageDelay: 0 })).toEqual({
      dailyLimit: settingsMsg.dailyLimitMin,
      messageDelay: settingsMsg.messageDelayRange,
    });
    expect(errorsOf({ ...allAccount, dailyLimit: Number.NaN, messageDelay: 0 })).toEqual({});
  });

  it('checks business hours in order as they will apply, with the account’s where the number has none', () => {
    const ownEnd = { ...allAccount.useAccount, businessEnd: false };
    expect(errorsOf({ ...allAccount, useAccount: ownEnd, businessEnd: '08:00' })).toEqual({
      businessEnd: settingsMsg.businessOrder,
    });
    const ownStart = { ...allAccount.useAccount, businessStart: false };
    expect(errorsOf({ ...allAccount, useAccount: ownStart, businessStart: '19:00' })).toEqual({
      businessStart: settingsMsg.businessOrder,
    });
    expect(errorsOf({ ...allAccount, useAccount: ownStart, businessStart: '10:00' })).toEqual({});
  });
});
