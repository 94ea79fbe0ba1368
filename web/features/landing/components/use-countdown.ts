import { useEffect, useState } from 'react';

/** The offer countdown of the landing page: 4:23:15 down to 0:00:00, then again (SPEC §2). */
export const COUNTDOWN_START_SEC = 4 * 3600 + 23 * 60 + 15;

export function countdownAt(elapsedSec: number): number {
  return COUNTDOWN_START_SEC - (Math.max(0, Math.floor(elapsedSec)) % (COUNTDOWN_START_SEC + 1));
}

/** 15795 → '4:23:15'. */
export function formatCountdown(totalSec: number): string {
  const h = Math.floor(totalSec / 3600);
  const m = Math.floor((totalSec % 3600) / 60);
  const s = totalSec % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

export function useLoopingCountdown(): number {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);
  return countdownAt((now - started) / 1000);
}
