#!/usr/bin/env node
// The first half of `npm start` (scripts/start.sh): build what is missing or out of date, then exit, so that the shell
// can replace itself with the server. BUILD_ON_START=0 skips the check and serves what is built (an image built
// beforehand; the tests of `npm start` itself, which must not rebuild under other tests' feet).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'node_modules', '.luntan-build-stamp');
const SOURCES = ['packages', 'plugins'];
const SKIP = new Set(['node_modules', 'dist', '.e2e-artifacts']);

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const main = path.join(root, 'packages/server/dist/main.js');
if (process.env.BUILD_ON_START === '0') {
  if (fs.existsSync(main)) process.exit(0);
  console.error('BUILD_ON_START=0 but packages/server/dist/main.js is missing: run `npm run build` first.');
  process.exit(1);
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const sources = Math.max(
  ...SOURCES.map((d) => newestMtime(path.join(root, d))),
  fs.statSync(path.join(root, 'package-lock.json')).mtimeMs,
);
if (!fs.existsSync(main) || sources > built) {
  console.log('Building Luntan (first start or changed sources)...');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(stamp, new Date().toISOString());
}
