import type { ChartConfiguration } from 'chart.js';
import { currencyLabel, type Currency } from '../../../../shared/money.ts';
import type { AgeingBucketName } from '../../../../shared/schemas/clients.ts';
import type { Overview } from '../../../../shared/schemas/overview.ts';
import type { useAgeingBuckets } from '../../../components/ageing-buckets.ts';
import type { useI18n } from '../../../i18n/use-i18n.ts';
import { compactMoney, drawn, monthLabel, seriesOf } from './overview-figures.ts';

export type Texts = ReturnType<typeof useI18n>;
export type Buckets = ReturnType<typeof useAgeingBuckets>;

/** The design tokens of the page (styles.css), read when drawing so the charts follow its theme. */
function palette() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    line: read('--app-accent', '#3f3cbb'),
    owed: read('--app-owed', '#b42318'),
    current: read('--bs-secondary-color', '#6c757d'),
    text: read('--bs-body-color', '#212529'),
    grid: read('--app-border', '#dfe2ea'),
  };
}

function chartOptions(currency: Currency, intlLocale: string) {
  const colours = palette();
  return {
    colours,
    common: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false as const,
      color: colours.text,
      plugins: { legend: { display: false } },
    },
    scales: {
      x: { ticks: { color: colours.text }, grid: { color: colours.grid } },
      y: {
        ticks: {
          color: colours.text,
          callback: (value: string | number) => compactMoney(Number(value), currency, intlLocale),
        },
        grid: { color: colours.grid },
        beginAtZero: true,
      },
    },
  };
}

export function historyChart(
  overview: Overview,
  currency: Currency,
  { t, format }: Texts,
): ChartConfiguration {
  const { colours, common, scales } = chartOptions(currency, format.intlLocale);
  const totals = seriesOf(overview, currency) ?? [];
  return {
    type: 'line',
    data: {
      labels: overview.history.months.map((month) => monthLabel(month, format.intlLocale)),
      datasets: [
        {
          label: t('overview.charts.total-series', { currency: currencyLabel[currency] }),
          data: totals.map((total) => drawn(total, currency)),
          borderColor: colours.line,
          backgroundColor: colours.line,
          pointRadius: 3,
        },
      ],
    },
    options: {
      ...common,
      scales,
      plugins: {
        ...common.plugins,
        tooltip: {
          callbacks: {
            label: (item) => format.money(BigInt(totals[item.dataIndex] ?? '0'), currency),
          },
        },
      },
    },
  };
}

export function ageingChart(
  overview: Overview,
  currency: Currency,
  { t, format }: Texts,
  buckets: Buckets,
): ChartConfiguration {
  const { colours, common, scales } = chartOptions(currency, format.intlLocale);
  const amounts = overview.currencies.find((row) => row.currency === currency)?.buckets;
  const amountOf = (name: AgeingBucketName | undefined) => amounts?.[name ?? 'current'] ?? '0';
  return {
    type: 'bar',
    data: {
      labels: buckets.map(({ label }) => label),
      datasets: [
        {
          label: t('overview.charts.owed-series', { currency: currencyLabel[currency] }),
          data: buckets.map(({ name }) => drawn(amountOf(name), currency)),
          backgroundColor: buckets.map(({ name }) =>
            name === 'current' ? colours.current : colours.owed,
          ),
        },
      ],
    },
    options: {
      ...common,
      scales,
      plugins: {
        ...common.plugins,
        tooltip: {
          callbacks: {
            label: (item) =>
              format.money(BigInt(amountOf(buckets[item.dataIndex]?.name)), currency),
          },
        },
      },
    },
  };
}
