import type { FinanceChartPoint, FinanceStats } from '@luntan/shared';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Spinner } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { useAdminQuery } from './admin-api';
import { AdminSection } from './admin-ui';
import { FinanceChart, type FigureKey } from './finance-chart';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.finance') };

const FIGURES: readonly FigureKey[] = [
  'totalIncome',
  'totalWithdrawal',
  'totalWallet',
  'totalProfit',
  'withdrawalProfit',
  'orderRoyalty',
  'totalRegisterProfit',
  'orderCount',
];

/** The chart's grouping: by day, week or month (financeChart.v2's type). */
const PERIODS = [
  { type: 1, key: 'day' },
  { type: 2, key: 'week' },
  { type: 3, key: 'month' },
] as const;

/** YYYY-MM-DD of a date in the viewer's own calendar. */
function day(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The default range: the last 60 days, as the server's own default. */
function defaultRange(): { begin: string; end: string } {
  const end = new Date();
  const begin = new Date(end.getTime() - 59 * 24 * 3600 * 1000);
  return { begin: day(begin), end: day(end) };
}

/** Finance: the site's eight money figures, and their history as a line chart. */
export function Component() {
  const { t } = useTranslation();
  const stats = useAdminQuery<FinanceStats>(['finance'], adminApi.finance.summary);
  const [type, setType] = useState<1 | 2 | 3>(1);
  const [range, setRange] = useState(defaultRange);
  const chart = useAdminQuery<FinanceChartPoint[]>(
    ['financeChart', type, range.begin, range.end],
    adminApi.finance.chart,
    { type, createdAtBegin: range.begin, createdAtEnd: range.end },
  );

  return (
    <>
      <AdminSection name="finance" title={t('admin.section.finance')}>
        {stats.error ? <p className="lt-empty">{stats.error}</p> : null}
        {!stats.data ? (
          stats.loading ? (
            <Spinner />
          ) : null
        ) : (
          <dl className="lt-figures" data-testid="finance-figures">
            {FIGURES.map((key) => (
              <div key={key} className="lt-figure" data-testid={`figure-${key}`}>
                <dt>{t(`admin.finance.figure.${key}`)}</dt>
                <dd>{key === 'orderCount' ? stats.data![key] : `¥${stats.data![key]}`}</dd>
              </div>
            ))}
          </dl>
        )}
        <p className="lt-hint">{t('admin.finance.explain')}</p>
      </AdminSection>
      <section className="lt-card lt-admin-form" aria-labelledby="finance-chart-title">
        <h2 id="finance-chart-title" className="lt-card__title">
          {t('admin.finance.chart')}
        </h2>
        <div className="lt-toolbar lt-toolbar--start">
          <div className="lt-segmented" role="group" aria-label={t('admin.finance.period')}>
            {PERIODS.map((p) => (
              <button
                key={p.type}
                type="button"
                className={`lt-segmented__item${type === p.type ? ' lt-segmented__item--active' : ''}`}
                aria-pressed={type === p.type}
                onClick={() => setType(p.type)}
              >
                {t(`admin.finance.by.${p.key}`)}
              </button>
            ))}
          </div>
          <label className="lt-date">
            <span>{t('admin.finance.from')}</span>
            <input
              type="date"
              name="createdAtBegin"
              value={range.begin}
              max={range.end}
              onChange={(e) => e.target.value && setRange((r) => ({ ...r, begin: e.target.value }))}
            />
          </label>
          <label className="lt-date">
            <span>{t('admin.finance.to')}</span>
            <input
              type="date"
              name="createdAtEnd"
              value={range.end}
              min={range.begin}
              onChange={(e) => e.target.value && setRange((r) => ({ ...r, end: e.target.value }))}
            />
          </label>
        </div>
        {chart.error ? <p className="lt-empty">{chart.error}</p> : null}
        <FinanceChart points={chart.data ?? []} />
      </section>
    </>
  );
}
