import { median, BROWSER_TARGETS, type BrowserReport } from './bench-browser.js';
import { markdownTable, ROW, THREAD_POOL, type MeasurementResult } from './bench-measurements.js';
import { MEMORY_TARGETS_MB } from './bench-memory.js';
import type { RenderBenchResult } from './bench-render.js';

/**
 * The targets of issue 25, each judged on one run, so that the machine's noise (a shared machine, a busy neighbour)
 * moves a measurement and what it is compared with together: a page's rate as a share of the member's thread.list
 * rate (the mean of the thread.list measured right before and after the page's row when it was, `beside`), and the
 * kept page and thread.list as a share of a bare Fastify server answering the same bytes (the "ceiling",
 * bench-ceiling.ts); beside them the absolute ones (p99, timeouts, memory, the browser's figures).
 */

export type TargetSpec =
  | { kind: 'share'; label: string; row: string; of: string; ofLabel: string; atLeast: number }
  | { kind: 'p99'; label: string; row: string; below: number }
  | { kind: 'no failures'; label: string; row: string }
  | { kind: 'memory'; label: string; belowMb: number }
  | { kind: 'javascript'; label: string; atMostKb: number }
  | { kind: 'tbt'; label: string; page: string; viewer: 'guest' | 'member'; belowMs: number }
  | { kind: 'render'; label: string; atMostMs: number };

const firstVisits = `a different thread of ${THREAD_POOL.toLocaleString('en')} each request`;
const guestThread = `guest thread page, first visits (${firstVisits})`;
const guestHome = 'guest home page, guest cache off';
const memberList = 'member thread.list';

export const ISSUE_TARGETS: TargetSpec[] = [
  {
    kind: 'share',
    label: guestThread,
    row: ROW.guestThreadFirst,
    of: ROW.memberList,
    ofLabel: memberList,
    atLeast: 0.4,
  },
  { kind: 'p99', label: guestThread, row: ROW.guestThreadFirst, below: 250 },
  { kind: 'no failures', label: guestThread, row: ROW.guestThreadFirst },
  {
    kind: 'share',
    label: guestHome,
    row: ROW.guestHomeUncached,
    of: ROW.memberList,
    ofLabel: memberList,
    atLeast: 0.4,
  },
  { kind: 'p99', label: guestHome, row: ROW.guestHomeUncached, below: 250 },
  { kind: 'no failures', label: guestHome, row: ROW.guestHomeUncached },
  {
    kind: 'share',
    label: `member thread page, first visits (${firstVisits})`,
    row: ROW.memberThreadFirst,
    of: ROW.memberList,
    ofLabel: memberList,
    atLeast: 0.35,
  },
  {
    kind: 'share',
    label: 'member home page, nothing kept',
    row: ROW.memberHomeUncached,
    of: ROW.memberList,
    ofLabel: memberList,
    atLeast: 0.35,
  },
  {
    kind: 'share',
    label: 'kept page (the same guest home page again and again)',
    row: ROW.keptPage,
    of: ROW.ceiling,
    ofLabel: 'the bare Fastify ceiling',
    atLeast: 0.4,
  },
  { kind: 'share', label: memberList, row: ROW.memberList, of: ROW.ceiling, ofLabel: 'the ceiling', atLeast: 0.15 },
  { kind: 'memory', label: 'RSS under load, largest server process', belowMb: MEMORY_TARGETS_MB.load },
  // In process, from data already read (bench-render.ts): what a first visit costs beyond its reads.
  { kind: 'render', label: 'render a 20-post thread page: ms of CPU', atMostMs: 5 },
  { kind: 'javascript', label: "home page's JavaScript as transferred", atMostKb: BROWSER_TARGETS.jsKb },
  { kind: 'tbt', label: 'home page TBT, phone, guest', page: 'home', viewer: 'guest', belowMs: BROWSER_TARGETS.tbtMs },
  {
    kind: 'tbt',
    label: 'home page TBT, phone, member',
    page: 'home',
    viewer: 'member',
    belowMs: BROWSER_TARGETS.tbtMs,
  },
];

/** What one database at one worker count measured; a part left out (--only, --no-browser) is "not measured". */
export interface TargetInput {
  /** The rows' results, the ceiling's among them (ROW.ceiling). */
  results: MeasurementResult[];
  /** The largest RSS of any server process under load, in bytes. */
  memoryPeak?: number;
  browser?: BrowserReport;
  /** The thread page rendered in process (bench-render.ts). */
  render?: RenderBenchResult;
}

export interface TargetRow {
  target: string;
  measured: string;
  /** The share (rate targets) or '-'. */
  ratio: string;
  goal: string;
  /** Undefined: not measured in this run. */
  ok: boolean | undefined;
}

const count = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const percent = (fraction: number) => `${(fraction * 100).toFixed(fraction < 0.1 ? 1 : 0)} %`;

function judge(spec: TargetSpec, input: TargetInput): Omit<TargetRow, 'target'> {
  const row = (name: string) => input.results.find((r) => r.name === name);
  const unmeasured = (goal: string) => ({ measured: 'not measured', ratio: '-', goal, ok: undefined });
  switch (spec.kind) {
    case 'share': {
      const goal = `≥ ${percent(spec.atLeast)} of ${spec.ofLabel}`;
      const r = row(spec.row);
      if (!r) return unmeasured(goal);
      // Measured beside the row (before and after it, on its server) when it was; else the row of the run.
      const beside = r.beside?.name === spec.of && r.beside.rates.length > 0 ? r.beside.rates : undefined;
      const baseRate = beside ? beside.reduce((sum, rate) => sum + rate, 0) / beside.length : row(spec.of)?.rate;
      if (baseRate === undefined) return unmeasured(goal);
      const share = baseRate > 0 ? r.rate / baseRate : Number.NaN;
      return {
        measured:
          `${count(r.rate)} req/s vs ${count(baseRate)}` +
          (beside ? ` (beside it: ${beside.map(count).join(' and ')})` : ''),
        ratio: Number.isNaN(share) ? '-' : percent(share),
        goal,
        // A row with failed requests meets no rate goal: its rate counts only the answers that came.
        ok: share >= spec.atLeast && r.errors === 0,
      };
    }
    case 'p99': {
      const goal = `p99 < ${count(spec.below)} ms`;
      const r = row(spec.row);
      if (!r) return unmeasured(goal);
      return { measured: `p99 ${Number.isNaN(r.p99) ? '-' : ms(r.p99)} ms`, ratio: '-', goal, ok: r.p99 < spec.below };
    }
    case 'no failures': {
      const goal = 'no timeouts or errors';
      const r = row(spec.row);
      if (!r) return unmeasured(goal);
      const failures = `${r.timeouts} timeouts, ${r.errors - r.timeouts} other errors`;
      // Requests still waiting when the window closed are neither answers nor errors: a window without a single
      // answer is no proof that nothing fails.
      if (r.samples === 0) return { measured: `no answer in the window; ${failures}`, ratio: '-', goal, ok: false };
      return { measured: failures, ratio: '-', goal, ok: r.errors === 0 };
    }
    case 'memory': {
      const goal = `< ${spec.belowMb} MB`;
      if (input.memoryPeak === undefined) return unmeasured(goal);
      const mb = input.memoryPeak / 2 ** 20;
      return { measured: `${mb.toFixed(0)} MB`, ratio: '-', goal, ok: mb < spec.belowMb };
    }
    case 'javascript': {
      const goal = `≤ ${spec.atMostKb} kB`;
      if (!input.browser) return unmeasured(goal);
      const kb = input.browser.transfer.js / 1000;
      return { measured: `${kb.toFixed(1)} kB`, ratio: '-', goal, ok: kb <= spec.atMostKb };
    }
    case 'render': {
      const goal = `≤ ${spec.atMostMs} ms`;
      const r = input.render;
      if (!r) return unmeasured(goal);
      return {
        measured: `${ms(r.fromDataMs)} ms (median of ${count(r.renders)}; its reads ${ms(r.loadersMs)} ms more)`,
        ratio: '-',
        goal,
        ok: r.fromDataMs <= spec.atMostMs,
      };
    }
    case 'tbt': {
      const goal = `< ${spec.belowMs} ms`;
      const loads = input.browser?.pages.find((p) => p.page === spec.page && p.viewer === spec.viewer);
      if (!loads || loads.tbt.length === 0) return unmeasured(goal);
      const tbt = median(loads.tbt);
      return { measured: `${tbt.toFixed(0)} ms (median)`, ratio: '-', goal, ok: tbt < spec.belowMs };
    }
  }
}

/** Every target of `specs` judged on one run's measurements. */
export function evaluateIssueTargets(input: TargetInput, specs: TargetSpec[] = ISSUE_TARGETS): TargetRow[] {
  return specs.map((spec) => ({ target: spec.label, ...judge(spec, input) }));
}

export const okMark = (ok: boolean | undefined): string => (ok === undefined ? '-' : ok ? 'yes' : 'NO');

/** The targets as a Markdown table: `| target | measured | ratio | goal | ok |`. */
export function targetsTable(title: string, rows: TargetRow[]): string {
  return markdownTable(
    title,
    ['target', 'measured', 'ratio', 'goal', 'ok'],
    rows.map((r) => [r.target, r.measured, r.ratio, r.goal, okMark(r.ok)]),
  );
}
