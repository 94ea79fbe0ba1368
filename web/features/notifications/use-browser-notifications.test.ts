import { describe, expect, it } from 'vitest';
import type { Notification } from '#contract/notifications';
import { notificationsToShow } from './use-browser-notifications';

const n = (id: string, createdAt: string, read = false): Notification => ({
  id,
  kind: 'conversation_handoff',
  title: `Título ${id}`,
  body: 'Corpo',
  link: null,
  read,
  createdAt,
});

describe('notificationsToShow', () => {
  const since = '2026-11-25T12:00:00.000Z';
  it('shows unread ones created since the page opened, not shown yet, newest first, a few at most', () => {
    const list = [
      n('old', '2026-11-25T11:59:00.000Z'),
      n('read', '2026-11-25T12:01:00.000Z', true),
      n('a', '2026-11-25T12:02:00.000Z'),
      n('b', '2026-11-25T12:03:00.000Z'),
      n('c', '2026-11-25T12:04:00.000Z'),
      n('d', '2026-11-25T12:05:00.000Z'),
      n('seen', '2026-11-25T12:06:00.000Z'),
    ];
    expect(notificationsToShow(list, since, new Set(['seen'])).map((x) => x.id)).toEqual(['d', 'c', 'b']);
    expect(notificationsToShow(list, since, new Set(['seen', 'd', 'c', 'b'])).map((x) => x.id)).toEqual(['a']);
    expect(notificationsToShow([], since, new Set())).toEqual([]);
  });
});
