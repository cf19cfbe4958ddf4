import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/** What a new user gets from `npm install` and the README, checked from the repository's own files. */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const readJson = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

describe('install', () => {
  it('installs no package that asks for a newer Node than the one we support (no EBADENGINE warning)', () => {
    const declared = (readJson('package.json').engines as { node: string }).node;
    const oldest = semver.minVersion(declared)!.version;
    const lock = readJson('package-lock.json').packages as Record<string, { engines?: { node?: string } | string[] }>;
    const refusing = Object.entries(lock)
      .filter(([, meta]) => {
        const node = Array.isArray(meta.engines) ? undefined : meta.engines?.node;
        return node !== undefined && !semver.satisfies(oldest, node);
      })
      .map(([name, meta]) => `${name} (${JSON.stringify(meta.engines)})`);
    expect(refusing).toEqual([]);
  });

  it("names only paths that exist in the README's table of what is where", () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## What is where'), readme.indexOf('## Scripts'));
    const paths = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(3);
    expect(paths.filter((p) => !fs.existsSync(path.join(root, p)))).toEqual([]);
  });
});
