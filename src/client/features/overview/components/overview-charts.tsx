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
import { currencyLabel, type Currency } from '../../../../shared/money.ts';
import type { Overview } from '../../../../shared/schemas/overview.ts';
import { useAgeingBuckets } from '../../../components/ageing-buckets.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ageingChart, historyChart, type Buckets, type Texts } from './chart-configs.ts';
import { monthLabel, seriesOf } from './overview-figures.ts';
import { AgeingTable, HistoryTable } from './overview-tables.tsx';

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
