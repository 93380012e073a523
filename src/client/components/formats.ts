import type { formattersFor } from '../i18n/use-i18n.ts';

type Formatters = ReturnType<typeof formattersFor>;

/**
 * A calendar day (YYYY-MM-DD) as the page shows it. English keeps the ISO form it has always
 * shown, which the product's specification and tests use ("at rates of 2026-11-20"); the other
 * languages write the day their own way ("2026. 11. 20.", "20 Nov 2026").
 */
export function dayText(isoDay: string, format: Formatters): string {
  return format.locale === 'en' ? isoDay : format.day(isoDay);
}

/**
 * An amount in US cents shown as an estimate beside amounts of other currencies: "≈ US$12.50".
 * American English writes a bare "$", which beside CA$ would not say which dollar; Korean and
 * Malay already name it (US$, USD).
 */
export function usdEstimate(cents: bigint, format: Formatters): string {
  const magnitude = format.money(cents < 0n ? -cents : cents, 'USD');
  return `≈ ${cents < 0n ? '-' : ''}${magnitude.startsWith('$') ? 'US' : ''}${magnitude}`;
}
