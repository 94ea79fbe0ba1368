/** pt-BR formatting used across the app (DESIGN §4, SPEC §9). */

export { formatCount, formatDay, formatNumber, formatPercent } from '#contract/format';

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** 25 → 'R$ 25,00' (plain space, so texts compare the same everywhere). */
export function formatMoney(value: number): string {
  return money.format(value).replace(/\s/g, ' ');
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'dd/mm/aaaa' in the browser's time zone; '' for an invalid date. */
export function formatDate(value: Date | string | number): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** 'dd/mm/aaaa hh:mm' in the browser's time zone; '' for an invalid date. */
export function formatDateTime(value: Date | string | number): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The one relative-time text of the app: 'agora' under a minute (and for a clock a little ahead),
 * 'Nm atrás' under an hour, 'Nh atrás' under a day, else 'Nd atrás' (SPEC §9).
 */
export function formatRelativeTime(value: Date | string | number, now: number = Date.now()): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  const minutes = Math.floor((now - d.getTime()) / 60_000);
  if (minutes < 1) return 'agora';
  if (minutes < 60) return `${minutes}m atrás`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h atrás`;
  return `${Math.floor(hours / 24)}d atrás`;
}

/** Remaining time in hours and minutes: '1h 23min', '45min'; null when over. */
export function formatRemaining(ms: number): string | null {
  if (ms <= 0) return null;
  const totalMinutes = Math.ceil(ms / 60_000);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return hours > 0 ? `${hours}h ${minutes}min` : `${minutes}min`;
}

/**
 * 'Maria da Silva' → 'MS'; one name → its first two letters. Null when the name has no letter
 * (empty, or a phone number standing in for a missing name: '+55 11 …' gave '+5'): avatars then
 * show a person icon.
 */
export function initials(name: string | null | undefined): string | null {
  if (!name || !/\p{L}/u.test(name)) return null;
  const parts = name.trim().split(/\s+/);
  if (parts.length === 1) return parts[0].slice(0, 2).toUpperCase();
  return `${parts[0][0]}${parts[parts.length - 1][0]}`.toUpperCase();
}

export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

const sizeDecimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const sizeInteger = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

/** A file's size in pt-BR: '800 bytes', '350 KB', '1,2 MB', '2,0 GB'; null when unknown (0, still being fetched). */
export function formatFileSize(bytes: number): string | null {
  if (!Number.isFinite(bytes) || bytes <= 0) return null;
  if (bytes < KB) return `${sizeInteger.format(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < MB) return `${sizeInteger.format(Math.max(1, Math.round(bytes / KB)))} KB`;
  if (bytes < GB) return `${sizeDecimal.format(bytes / MB)} MB`;
  return `${sizeDecimal.format(bytes / GB)} GB`;
}
