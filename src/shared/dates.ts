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
