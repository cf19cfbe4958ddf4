import type { FinanceChartPoint, FinanceStats } from '@luntan/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Spinner } from '../components/ui';
import type { ChartInstance, EChartsOption } from './finance-echarts';

/** The eight figures of finance.v2 (and the chart's series). */
export type FigureKey = keyof FinanceStats;

/** The money series drawn (left axis); the order count goes on the right axis. */
export const CHART_SERIES = [
  'totalIncome',
  'totalWithdrawal',
  'totalProfit',
  'withdrawalProfit',
  'orderRoyalty',
  'totalRegisterProfit',
] as const;

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#8a919c'];

/** The chart's option for these points: one line per figure, dates along the bottom. */
export function chartOption(points: FinanceChartPoint[], label: (key: FigureKey) => string): EChartsOption {
  const money = CHART_SERIES.map((key) => ({
    name: label(key),
    type: 'line',
    showSymbol: points.length < 40,
    data: points.map((p) => Number(p[key])),
  }));
  return {
    color: COLORS,
    tooltip: { trigger: 'axis' },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    xAxis: { type: 'category', boundaryGap: false, data: points.map((p) => p.date) },
    yAxis: [
      { type: 'value', axisLabel: { formatter: '¥{value}' } },
      { type: 'value', minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      ...money,
      {
        name: label('orderCount'),
        type: 'line',
        yAxisIndex: 1,
        showSymbol: points.length < 40,
        lineStyle: { type: 'dashed' },
        data: points.map((p) => p.orderCount),
      },
    ],
  };
}

/**
 * The finance line chart. ECharts arrives with the first render in the browser (a dynamic import), so the server's
 * HTML holds the empty frame and only this page downloads the library.
 */
export function FinanceChart({ points }: { points: FinanceChartPoint[] }) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let observer: ResizeObserver | null = null;
    void import('./finance-echarts').then(({ createChart }) => {
      if (cancelled || !frame.current) return;
      chart.current = createChart(frame.current);
      observer = new ResizeObserver(() => chart.current?.resize());
      observer.observe(frame.current);
      setReady(true);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (!ready || !chart.current) return;
    chart.current.setOption(
      chartOption(points, (key) => t(`admin.finance.figure.${key}`)),
      { notMerge: true },
    );
  }, [ready, points, t]);

  return (
    <div className="lt-finance-chart" data-testid="finance-chart" data-ready={ready || undefined}>
      <div ref={frame} className="lt-finance-chart__canvas" />
      {!ready ? (
        <div className="lt-finance-chart__loading">
          <Spinner />
        </div>
      ) : null}
    </div>
  );
}
