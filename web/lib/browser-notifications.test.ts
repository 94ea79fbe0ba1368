import { afterEach, describe, expect, it } from 'vitest';
import {
  browserNotificationsMsg,
  pushSwitchView,
  readBrowserPermission,
  showBrowserNotification,
} from './browser-notifications';

describe('pushSwitchView', () => {
  it('shows on without a caveat only where the browser allows it', () => {
    expect(pushSwitchView(true, 'granted')).toEqual({
      checked: true,
      disabled: false,
      note: browserNotificationsMsg.on,
      tone: 'muted',
      askButton: false,
    });
    expect(pushSwitchView(false, 'granted')).toMatchObject({ checked: false, disabled: false, note: null });
  });

  it('on by default, never asked: on, with what is missing and the button that asks', () => {
    expect(pushSwitchView(true, 'default')).toEqual({
      checked: true,
      disabled: false,
      note: browserNotificationsMsg.needsPermission,
      tone: 'warning',
      askButton: true,
    });
    // A demo (read-only) account gets no prompt.
    expect(pushSwitchView(true, 'default', { readOnly: true })).toMatchObject({ disabled: true, askButton: false });
  });

  it('refused: off and unavailable, whatever the preference, with how to allow it', () => {
    for (const preference of [true, false]) {
      expect(pushSwitchView(preference, 'denied')).toEqual({
        checked: false,
        disabled: true,
        note: browserNotificationsMsg.denied,
        tone: 'warning',
        askButton: false,
      });
    }
    expect(browserNotificationsMsg.denied).toContain('Permitir');
  });

  it('a prompt closed without an answer leaves it off and says so', () => {
    expect(pushSwitchView(false, 'default', { dismissed: true })).toEqual({
      checked: false,
      disabled: false,
      note: browserNotificationsMsg.dismissed,
      tone: 'warning',
      askButton: false,
    });
    expect(pushSwitchView(false, 'default')).toMatchObject({ checked: false, note: null, askButton: false });
  });

  it('a browser without notifications: off and unavailable', () => {
    expect(pushSwitchView(true, 'unsupported')).toMatchObject({ checked: false, disabled: true, askButton: false });
  });
});

describe('showBrowserNotification', () => {
  const g = globalThis as { window?: unknown };
  afterEach(() => {
    delete g.window;
  });

  function fakeBrowser(permission: string) {
    const shown: string[] = [];
    class FakeNotification {
      static permission = permission;
      constructor(title: string) {
        shown.push(title);
      }
    }
    g.window = { Notification: FakeNotification };
    return shown;
  }

  it('shows only with permission granted', () => {
    for (const permission of ['default', 'denied']) {
      const shown = fakeBrowser(permission);
      expect(showBrowserNotification('Novo atendimento')).toBe(false);
      expect(shown).toEqual([]);
    }
    const shown = fakeBrowser('granted');
    expect(showBrowserNotification('Novo atendimento')).toBe(true);
    expect(shown).toEqual(['Novo atendimento']);
  });

  it('reads no permission without the Notification API', () => {
    expect(readBrowserPermission()).toBe('unsupported');
  });
});
