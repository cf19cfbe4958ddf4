#!/usr/bin/env node
// `npm test`: build what changed, then every vitest project (unit, service and HTTP tests against a real database),
// then the browser tests. DATABASE_URL=postgres://... runs the database tests on PostgreSQL instead of SQLite, and
// with them the browser files that depend on the database (e2e/vitest.config.ts, POSTGRES_FILES).
// Ends with one line `tests: N passed, M failed` over all suites. First, what the browser tests need from the
// machine (Chromium, CJK fonts) is installed when missing, or named in one line before it stops (browser-deps.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBrowserDeps } from './browser-deps.mjs';

if (!ensureBrowserDeps()) process.exit(1);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-test-report-'));
let passed = 0;
let failed = 0;
let exitCode = 0;

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) exitCode = result.status ?? 1;
  return result.status === 0;
}

function vitest(label, extra) {
  const out = path.join(reports, `${label}.json`);
  run(label, 'npx', ['vitest', 'run', ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  if (fs.existsSync(out)) {
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    slowestFiles(label, report);
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    if ((report.numTotalTests ?? 0) === 0) {
      console.error(`${label}: no test ran`);
      exitCode ||= 1;
    }
  } else {
    exitCode ||= 1;
  }
}

/** The files that took longest, from vitest's JSON report: where the suite's time goes, for whoever shortens CI. */
function slowestFiles(label, report) {
  const files = (report.testResults ?? [])
    .map((file) => ({ name: path.relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000 }))
    .filter((file) => Number.isFinite(file.seconds))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 10);
  if (files.length === 0) return;
  console.log(`\n${label}: slowest files`);
  for (const file of files) console.log(`  ${file.seconds.toFixed(1).padStart(7)} s  ${file.name}`);
}

console.log(`Database for this run (browser tests included): ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`);
// The build of what changed since the last build (scripts/build-if-changed.mjs, as `npm start` does): CI's second
// pass, on PostgreSQL, reuses the first pass's build.
if (run('build', process.execPath, ['scripts/build-if-changed.mjs'])) {
  vitest('unit-and-http', []);
  if (fs.existsSync(path.join(root, 'e2e/vitest.config.ts'))) vitest('browser', ['--config', 'e2e/vitest.config.ts']);
}
fs.rmSync(reports, { recursive: true, force: true });
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(exitCode || (failed > 0 ? 1 : 0));
