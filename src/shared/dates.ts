/** A real calendar day written as YYYY-MM-DD ("2026-02-30" is not one). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

const dayMs = 86_400_000;
/** The last day worked out: every list request asks for today's, thousands of times a second. */
let lastDay = { from: 0, to: 0, text: '' };

/** The day of `at` in UTC as YYYY-MM-DD. */
export function utcDay(at: number | Date = Date.now()): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  if (ms >= lastDay.from && ms < lastDay.to) return lastDay.text;
  const text = new Date(ms).toISOString().slice(0, 10);
  const from = Math.floor(ms / dayMs) * dayMs;
  lastDay = { from, to: from + dayMs, text };
  return text;
}

/** The day this device's clock and time zone call today, as YYYY-MM-DD. */
export function localToday(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** The day `days` after `day` (both YYYY-MM-DD). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return utcDay(date);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` comes first. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar day as a language writes it in its medium style ("Nov 23, 2026", "2026. 11. 23."). */
export function writtenDay(day: string, intlLocale: string): string {
  let format = dayFormats.get(intlLocale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale, { dateStyle: 'medium', timeZone: 'UTC' });
    dayFormats.set(intlLocale, format);
  }
  return format.format(new Date(`${day}T00:00:00Z`));
}

/**
 * A bank's date written in the order it uses (YYYY-MM-DD out), or null: "2024.01.31", "20240131",
 * "31/01/24", "1/31/2024 14:05". Two-digit years are this century's. The server reads statements
 * with it, and the bank import's page shows with it what the order chosen does.
 */
export function readBankDate(text: string, order: 'YMD' | 'DMY' | 'MDY'): string | null {
  let parts = text.trim().match(/\d+/g) ?? [];
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && /^\d{8}$/.test(only) && order === 'YMD')
    parts = [only.slice(0, 4), only.slice(4, 6), only.slice(6)];
  if (parts.length < 3) return null;
  const [a, b, c] = parts as [string, string, string];
  const [year, month, day] = order === 'YMD' ? [a, b, c] : order === 'DMY' ? [c, b, a] : [c, a, b];
  if (year.length !== 2 && year.length !== 4) return null;
  if (month.length > 2 || day.length > 2) return null;
  const date = `${year.length === 2 ? `20${year}` : year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isCalendarDate(date) ? date : null;
}
