#!/usr/bin/env node
// `npm start`: build what is missing or out of date, then run the server in this process's place.
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

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const sources = Math.max(
  ...SOURCES.map((d) => newestMtime(path.join(root, d))),
  fs.statSync(path.join(root, 'package-lock.json')).mtimeMs,
);
if (!fs.existsSync(path.join(root, 'packages/server/dist/main.js')) || sources > built) {
  console.log('Building Luntan (first start or changed sources)...');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(stamp, new Date().toISOString());
}

// A young generation of at most 8 MB per semi-space (V8's default is 16): the idle process stays near 140 MB instead
// of 155 (docs/performance.md, "Memory"); a page's garbage is short-lived, so scavenges stay cheap. NODE_OPTIONS may
// set another value.
const v8Flags = /max-semi-space-size/.test(process.env.NODE_OPTIONS ?? '') ? [] : ['--max-semi-space-size=8'];
const server = spawnSync(process.execPath, [...v8Flags, path.join(root, 'packages/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
process.exit(server.status ?? 0);
