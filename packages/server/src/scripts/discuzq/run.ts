import fs from 'node:fs/promises';
import cliProgress from 'cli-progress';
import type { FileStore } from '../../core/storage/index.js';
import type { Database } from '../../db/database.js';
import { runImport, type ImportProgress, type ImportReport } from './importer.js';
import { openDumpSource } from './dump-source.js';
import { openMysqlSource } from './mysql-source.js';
import type { DzqSource } from './source.js';
import type { Step } from './steps.js';
import { IMPORT_STEPS } from './steps/index.js';
import { setSiteOffset } from './values.js';

/** What one import needs besides the forum's database (the CLI's options, or a test's). */
export interface ImportDiscuzqInput {
  from: string;
  prefix: string;
  storageDir: string | null;
  appKey: string | null;
  timezoneOffset: number;
  dryRun: boolean;
  force: boolean;
  /** The forum's store (core/storage); the app's, or the one STORAGE_URL names. */
  files?: FileStore;
  /** The steps to run (tests of one part); all of them by default. */
  steps?: readonly Step[];
}

export async function openSource(from: string): Promise<DzqSource> {
  return /^mysql:\/\//i.test(from) ? openMysqlSource(from) : openDumpSource(from);
}

/** Bars on stderr: one per table, with rows and rate (on a terminal; elsewhere a line every ten seconds). */
function progressBars(): ImportProgress {
  let bar: cliProgress.SingleBar | null = null;
  let done = 0;
  let began = 0;
  return {
    start(table, total) {
      bar = new cliProgress.SingleBar(
        {
          format: `${table.padEnd(24)} |{bar}| {value}/{total} rows | {rate} rows/s | {duration_formatted}`,
          hideCursor: true,
          noTTYOutput: true,
          notTTYSchedule: 10_000,
        },
        cliProgress.Presets.shades_classic,
      );
      done = 0;
      began = Date.now();
      bar.start(total, 0, { rate: 0 });
    },
    advance(rows) {
      done += rows;
      const seconds = Math.max(0.001, (Date.now() - began) / 1000);
      bar?.update(done, { rate: Math.round(done / seconds) });
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}

export async function importDiscuzq(
  database: Pick<Database, 'db' | 'dialect'>,
  input: ImportDiscuzqInput & { files: FileStore },
  view: { bars: boolean } = { bars: false },
): Promise<ImportReport> {
  setSiteOffset(input.timezoneOffset);
  const source = await openSource(input.from);
  try {
    return await runImport({
      database,
      source,
      prefix: input.prefix,
      steps: [...(input.steps ?? IMPORT_STEPS)],
      force: input.force,
      options: {
        storageDir: input.storageDir,
        appKey: input.appKey,
        files: input.files,
        dryRun: input.dryRun,
        notificationDays: 90,
      },
      ...(view.bars ? { progress: progressBars() } : {}),
    });
  } finally {
    await source.close();
  }
}

/** The report as a text table: what was read, written and skipped (and why) per table, then the notes. */
export function reportText(report: ImportReport): string {
  const lines = [
    `Discuz! Q import${report.dryRun ? ' (dry run: nothing was written)' : ''}${report.resumed ? ' (resumed)' : ''}, ${report.seconds.toFixed(1)} s`,
    '',
    `${'table'.padEnd(26)}${'read'.padStart(10)}${'written'.padStart(10)}${'skipped'.padStart(10)}  why skipped`,
  ];
  for (const t of report.tables) {
    const skipped = Object.values(t.skipped).reduce((a, b) => a + b, 0);
    const why = t.absent
      ? 'not in the source'
      : Object.entries(t.skipped)
          .map(([reason, n]) => `${reason}: ${n}`)
          .join('; ');
    lines.push(
      `${t.table.padEnd(26)}${String(t.read).padStart(10)}${String(t.written).padStart(10)}${String(skipped).padStart(10)}  ${why}`,
    );
  }
  if (report.notes.length > 0) lines.push('', 'Notes:', ...report.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}

export async function printReport(report: ImportReport, file: string): Promise<void> {
  const text = reportText(report);
  console.log(`\n${text}`);
  await fs.writeFile(file, text);
  await fs.writeFile(file.replace(/(\.txt)?$/, '.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`The report is in ${file}.`);
}
