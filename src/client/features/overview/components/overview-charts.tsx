import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { Table2 } from 'lucide-react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import { currencyExponent, currencyLabel, type Currency } from '../../../../shared/money.ts';
import type { AgeingBucketName } from '../../../../shared/schemas/clients.ts';
import type { Overview } from '../../../../shared/schemas/overview.ts';
import { useAgeingBuckets } from '../../../components/ageing-buckets.ts';
import { dayText } from '../../../components/formats.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';

// Only the parts these two charts draw with, so the rest of the library is left out of the build.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

type Texts = ReturnType<typeof useI18n>;
type Buckets = ReturnType<typeof useAgeingBuckets>;

const monthFormats = new Map<string, Intl.DateTimeFormat>();
/** A month (YYYY-MM) as the language names it: "Nov 2026", "2026년 11월". */
function monthLabel(month: string, intlLocale: string): string {
  let format = monthFormats.get(intlLocale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale, {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    monthFormats.set(intlLocale, format);
  }
  return format.format(new Date(`${month}-01T00:00:00Z`));
}

/** A height on the chart's scale; exact amounts are in the tooltips and the tables. */
const drawn = (minor: string, currency: Currency) =>
  Number(minor) / 10 ** currencyExponent[currency];

const compactFormats = new Map<string, Intl.NumberFormat>();
/** An axis label: "$1.2M", "₩123.5만", "RM 1.2J". */
function compactMoney(value: number, currency: Currency, intlLocale: string): string {
  let format = compactFormats.get(`${intlLocale} ${currency}`);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale, {
      style: 'currency',
      currency,
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    compactFormats.set(`${intlLocale} ${currency}`, format);
  }
  // As formatMoney does: people there write "RM", whatever Intl spells.
  return currency === 'MYR' ? format.format(value).replace(/MYR\s*/, 'RM ') : format.format(value);
}

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

/**
 * The colour scheme on <html> (data-bs-theme), which follows the system while the page is open:
 * a canvas keeps the colours it was drawn with, so the charts are drawn again when it changes.
 */
function subscribeToTheme(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributeFilter: ['data-bs-theme'] });
  return () => observer.disconnect();
}
const currentTheme = () => document.documentElement.getAttribute('data-bs-theme');

/** One Chart.js chart on a canvas, drawn anew when its configuration changes (live updates). */
function CanvasChart({
  label,
  build,
  overview,
  currency,
}: {
  label: string;
  build: (
    overview: Overview,
    currency: Currency,
    texts: Texts,
    buckets: Buckets,
  ) => ChartConfiguration;
  overview: Overview;
  currency: Currency;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = useSyncExternalStore(subscribeToTheme, currentTheme);
  const texts = useI18n();
  const buckets = useAgeingBuckets();
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, build(overview, currency, texts, buckets));
    return () => chart.destroy();
    // Drawn again in a new language; the bucket names change with the texts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [build, overview, currency, theme, texts]);
  // Chart.js sizes the canvas to this box; the height is set through the DOM, which the page's
  // content security policy allows (a style attribute in markup it would not).
  return (
    <div className="position-relative" style={{ height: '14rem' }}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

function seriesOf(overview: Overview, currency: Currency) {
  return overview.history.series.find((series) => series.currency === currency)?.totals ?? null;
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

function historyChart(
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

function ageingChart(
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

function HistoryTable({ overview }: { overview: Overview }) {
  const { t, format } = useI18n();
  const { months, series } = overview.history;
  const current = months.length - 1;
  return (
    // Focusable, so a keyboard can scroll it sideways on a narrow screen.
    <div
      className="table-responsive"
      tabIndex={0}
      role="region"
      aria-label={t('overview.charts.history-table')}
    >
      <table className="table table-sm small text-nowrap">
        <caption className="caption-top">{t('overview.charts.history-table')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('overview.charts.month-end')}</th>
            {series.map(({ currency }) => (
              <th key={currency} scope="col" className="text-end">
                {currencyLabel[currency]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {months.map((month, index) => (
            <tr key={month}>
              <th scope="row">
                {index === current
                  ? t('overview.charts.to-date', { month: monthLabel(month, format.intlLocale) })
                  : monthLabel(month, format.intlLocale)}
              </th>
              {series.map(({ currency, totals }) => (
                <td key={currency} className="text-end">
                  {format.money(BigInt(totals[index] ?? '0'), currency)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AgeingTable({ overview }: { overview: Overview }) {
  const { t, format } = useI18n();
  const buckets = useAgeingBuckets();
  return (
    <div
      className="table-responsive"
      tabIndex={0}
      role="region"
      aria-label={t('dashboard.ageing.label')}
    >
      <table className="table table-sm small text-nowrap">
        <caption className="caption-top">
          {t('dashboard.ageing.caption', { date: dayText(overview.asOf, format) })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('overview.overdue')}</th>
            {overview.currencies.map(({ currency }) => (
              <th key={currency} scope="col" className="text-end">
                {currencyLabel[currency]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {buckets.map(({ name, label }) => (
            <tr key={name}>
              <th scope="row">{label}</th>
              {overview.currencies.map(({ currency, buckets }) => (
                <td key={currency} className="text-end">
                  {format.money(BigInt(buckets[name]), currency)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The total owed at each month end over the last year and the ageing of what is owed, as charts
 * of one currency at a time (amounts in different currencies share no scale), or, on request,
 * as tables of every currency.
 */
export function OverviewCharts({ overview }: { overview: Overview }) {
  const { t, format } = useI18n();
  const selectId = useId();
  const [asTable, setAsTable] = useState(false);
  const shown = overview.currencies.map((row) => row.currency);
  const [chosen, choose] = useState<Currency | null>(null);
  const currency = chosen && shown.includes(chosen) ? chosen : shown[0];
  if (!currency) return null;
  const totals = seriesOf(overview, currency);
  const first = overview.history.months[0] ?? '';
  const last = overview.history.months.at(-1) ?? '';
  const latest = totals?.at(-1);
  return (
    <section className="card" data-testid="overview-charts">
      <div className="card-body">
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
          <h3 className="h6 card-title mb-0">{t('overview.charts.title')}</h3>
          <div className="d-flex flex-wrap align-items-center gap-2">
            {!asTable && shown.length > 1 && (
              <>
                <label htmlFor={selectId} className="small text-body-secondary">
                  {t('overview.charts.currency')}
                </label>
                <select
                  id={selectId}
                  className="form-select form-select-sm w-auto"
                  value={currency}
                  onChange={(event) => choose(event.target.value as Currency)}
                >
                  {shown.map((code) => (
                    <option key={code} value={code}>
                      {currencyLabel[code]}
                    </option>
                  ))}
                </select>
              </>
            )}
            <button
              type="button"
              className="btn btn-outline-secondary btn-sm d-inline-flex align-items-center gap-1"
              aria-pressed={asTable}
              onClick={() => setAsTable((value) => !value)}
            >
              <Table2 size={14} className="icon" aria-hidden />
              {t('overview.charts.as-table')}
            </button>
          </div>
        </div>
        {asTable ? (
          <>
            <HistoryTable overview={overview} />
            <AgeingTable overview={overview} />
          </>
        ) : (
          <div className="row g-3">
            <div className="col-12 col-md-7">
              <p className="small text-body-secondary mb-1">
                {t('overview.charts.history-caption', { currency: currencyLabel[currency] })}
              </p>
              <CanvasChart
                build={historyChart}
                overview={overview}
                currency={currency}
                label={t(
                  latest ? 'overview.charts.history-label-now' : 'overview.charts.history-label',
                  {
                    currency: currencyLabel[currency],
                    first: monthLabel(first, format.intlLocale),
                    last: monthLabel(last, format.intlLocale),
                    amount: latest ? format.money(BigInt(latest), currency) : '',
                  },
                )}
              />
            </div>
            <div className="col-12 col-md-5">
              <p className="small text-body-secondary mb-1">
                {t('overview.charts.ageing-caption', { currency: currencyLabel[currency] })}
              </p>
              <CanvasChart
                build={ageingChart}
                overview={overview}
                currency={currency}
                label={t('overview.charts.ageing-label', { currency: currencyLabel[currency] })}
              />
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
