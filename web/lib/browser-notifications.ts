import { useCallback, useEffect, useState } from 'react';

/** What this browser allows for notifications of this site; 'unsupported' without the Notification API. */
export type BrowserPermission = 'granted' | 'denied' | 'default' | 'unsupported';

export const browserNotificationsMsg = {
  allow: 'Permitir notificações',
  asking: 'Aguardando o navegador...',
  needsPermission:
    'Ligadas na sua conta, mas o navegador ainda não deu permissão: clique em Permitir notificações e confirme no aviso do navegador.',
  denied:
    'Bloqueadas neste navegador. Para permitir, clique no cadeado (ou no ícone de configurações) ao lado do endereço do site, em Notificações escolha Permitir e recarregue a página.',
  dismissed: 'O navegador não deu permissão. Ligue de novo e escolha Permitir no aviso do navegador.',
  unsupported: 'Este navegador não mostra notificações.',
  on: 'Ativas neste navegador.',
} as const;

/** The browser's permission now (no prompt). */
export function readBrowserPermission(): BrowserPermission {
  if (typeof window === 'undefined' || typeof window.Notification === 'undefined') return 'unsupported';
  const p = window.Notification.permission;
  return p === 'granted' || p === 'denied' ? p : 'default';
}

export interface PushSwitchView {
  /** Whether the switch shows on: never while this browser cannot show notifications. */
  checked: boolean;
  /** The switch cannot be used here (blocked or unsupported browser, or a read-only account). */
  disabled: boolean;
  /** A line under the switch: what is missing and how to fix it; null when all is well and off. */
  note: string | null;
  /** 'warning' when notifications will not show although the account wants them. */
  tone: 'muted' | 'warning';
  /** Offer 'Permitir notificações' (the prompt needs a click: browsers ignore or penalise it otherwise). */
  askButton: boolean;
}

/**
 * How 'Notificações no navegador' shows, from the account's preference and this browser's
 * permission. Only 'granted' shows it on without a caveat; a refusal shows it off and unavailable,
 * with how to allow it again; 'default' (never asked) with the preference on offers the button.
 * `dismissed`: the last prompt was closed without an answer.
 */
export function pushSwitchView(
  preference: boolean,
  permission: BrowserPermission,
  opts: { readOnly?: boolean; dismissed?: boolean } = {},
): PushSwitchView {
  const readOnly = opts.readOnly ?? false;
  switch (permission) {
    case 'unsupported':
      return {
        checked: false,
        disabled: true,
        note: browserNotificationsMsg.unsupported,
        tone: 'muted',
        askButton: false,
      };
    case 'denied':
      return {
        checked: false,
        disabled: true,
        note: browserNotificationsMsg.denied,
        tone: 'warning',
        askButton: false,
      };
    case 'granted':
      return {
        checked: preference,
        disabled: readOnly,
        note: preference ? browserNotificationsMsg.on : null,
        tone: 'muted',
        askButton: false,
      };
    default:
      if (preference) {
        return {
          checked: true,
          disabled: readOnly,
          note: browserNotificationsMsg.needsPermission,
          tone: 'warning',
          askButton: !readOnly,
        };
      }
      return {
        checked: false,
        disabled: readOnly,
        note: opts.dismissed ? browserNotificationsMsg.dismissed : null,
        tone: opts.dismissed ? 'warning' : 'muted',
        askButton: false,
      };
  }
}

/**
 * This browser's notification permission, kept current (the person may change it in the site's
 * settings meanwhile), and `request()`, to be called from a click: it shows the browser's prompt
 * when the site was never answered and resolves with the outcome.
 */
export function useBrowserPermission(): {
  permission: BrowserPermission;
  request: () => Promise<BrowserPermission>;
} {
  const [permission, setPermission] = useState<BrowserPermission>(readBrowserPermission);

  useEffect(() => {
    let status: PermissionStatus | null = null;
    let cancelled = false;
    const sync = () => setPermission(readBrowserPermission());
    navigator.permissions
      ?.query({ name: 'notifications' })
      .then((s) => {
        if (cancelled) return;
        status = s;
        s.addEventListener('change', sync);
      })
      .catch(() => {});
    // Coming back to the tab after changing the site's settings.
    window.addEventListener('focus', sync);
    return () => {
      cancelled = true;
      status?.removeEventListener('change', sync);
      window.removeEventListener('focus', sync);
    };
  }, []);

  const request = useCallback(async (): Promise<BrowserPermission> => {
    const current = readBrowserPermission();
    if (current !== 'default') {
      setPermission(current);
      return current;
    }
    try {
      await window.Notification.requestPermission();
    } catch {
      // Very old browsers take a callback instead; the permission is read back below either way.
    }
    const next = readBrowserPermission();
    setPermission(next);
    return next;
  }, []);

  return { permission, request };
}

/**
 * Shows a browser notification only where this site may: with 'granted', never otherwise (no
 * prompt from here). Answers whether it was shown.
 */
export function showBrowserNotification(
  title: string,
  options?: NotificationOptions & { onClick?: () => void },
): boolean {
  if (readBrowserPermission() !== 'granted') return false;
  try {
    const { onClick, ...rest } = options ?? {};
    const notification = new window.Notification(title, rest);
    if (onClick) {
      notification.onclick = () => {
        window.focus();
        onClick();
        notification.close();
      };
    }
    return true;
  } catch {
    // Chrome on Android allows notifications only through a service worker.
    return false;
  }
}
