import fs from 'node:fs';
import { markdownTable, verdict, type TargetCheck } from './bench-measurements.js';

/**
 * The memory part of `npm run bench`: the resident set (VmRSS) of every server process, read from /proc (Linux).
 * The server runs as `npm start`, whose child is the `node main.js` process (scripts/start.sh replaces itself with it)
 * and, with WORKERS above 1, that process's cluster workers; npm itself only waits, so it is not counted.
 */

export const MEMORY_TARGETS_MB = { idle: 150, load: 400 } as const;

/** The direct children of a process (from /proc/<pid>/task/<tid>/children; empty when the process is gone). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}

/** Every process below `pid` (not `pid` itself), with the depth under it: 1 for its children. */
export function descendants(pid: number): { pid: number; depth: number }[] {
  const found: { pid: number; depth: number }[] = [];
  const walk = (parent: number, depth: number) => {
    for (const child of childrenOf(parent)) {
      found.push({ pid: child, depth });
      walk(child, depth + 1);
    }
  };
  walk(pid, 1);
  return found;
}

/** VmRSS of a process in bytes, from the `VmRSS:  123456 kB` line of /proc/<pid>/status; undefined once gone. */
export function parseVmRss(status: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}

function rssOf(pid: number): number | undefined {
  try {
    return parseVmRss(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

export interface ProcessMemory {
  pid: number;
  /** `main` (the node main.js process) or `worker` (a cluster worker under it). */
  role: 'main' | 'worker';
  /** Bytes, after start and warm-up, before any load (undefined for a process that appeared later). */
  idle: number | undefined;
  /** Bytes, the largest sample during the load (undefined when never sampled under load). */
  load: number | undefined;
}

/** Samples the RSS of the server's processes: `idle()` once, then every `intervalMs` between `start()` and `stop()`. */
export class ServerMemory {
  private readonly processes = new Map<number, ProcessMemory>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly startPid: number,
    private readonly intervalMs = 250,
  ) {}

  private sample(field: 'idle' | 'load'): void {
    for (const { pid, depth } of descendants(this.startPid)) {
      const rss = rssOf(pid);
      if (rss === undefined) continue;
      const p = this.processes.get(pid) ?? {
        pid,
        role: depth === 1 ? 'main' : 'worker',
        idle: undefined,
        load: undefined,
      };
      p[field] = Math.max(p[field] ?? 0, rss);
      this.processes.set(pid, p);
    }
  }

  idle(): void {
    this.sample('idle');
  }

  /** Samples under load until stop(); sampling is cheap (a few small /proc reads), so it hardly loads the machine. */
  start(): void {
    if (this.timer) return;
    this.sample('load');
    this.timer = setInterval(() => this.sample('load'), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  results(): ProcessMemory[] {
    return [...this.processes.values()].sort((a, b) =>
      a.role === b.role ? a.pid - b.pid : a.role === 'main' ? -1 : 1,
    );
  }
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / 2 ** 20).toFixed(0));

export function memoryChecks(p: ProcessMemory): TargetCheck[] {
  const checks: TargetCheck[] = [];
  if (p.idle !== undefined) {
    checks.push({ label: `idle < ${MEMORY_TARGETS_MB.idle} MB`, met: p.idle < MEMORY_TARGETS_MB.idle * 2 ** 20 });
  }
  if (p.load !== undefined) {
    checks.push({ label: `load < ${MEMORY_TARGETS_MB.load} MB`, met: p.load < MEMORY_TARGETS_MB.load * 2 ** 20 });
  }
  return checks;
}

/** One row per server process: its RSS idle and at most under load, in MB (2^20 bytes). */
export function memoryTable(title: string, processes: ProcessMemory[]): string {
  return markdownTable(
    title,
    ['process', 'pid', 'idle RSS MB', 'max RSS under load MB', 'target'],
    processes.map((p) => [p.role, String(p.pid), mb(p.idle), mb(p.load), verdict(memoryChecks(p))]),
  );
}
