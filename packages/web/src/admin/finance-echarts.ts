import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/*
 * The part of ECharts the finance chart uses, in a module of its own: the finance page imports it only in the
 * browser, after rendering, so no other page (and no server render) loads it.
 */
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export type EChartsOption = echarts.EChartsCoreOption;
export type ChartInstance = echarts.ECharts;

export function createChart(element: HTMLElement): ChartInstance {
  return echarts.init(element, undefined, { renderer: 'canvas' });
}
