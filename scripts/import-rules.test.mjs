import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The import rules of `npm run lint` (.dependency-cruiser.cjs) fire: dependency-cruiser runs with the repository's
 * own configuration over a small tree written to a temporary folder, laid out as the repository is, with one import
 * that breaks each rule and the imports the floors allow.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

const TREE = {
  // Allowed: the assembly reaches a module through its public face.
  'packages/server/src/app.ts': "import { serve } from './modules/feature/index.js';\nexport const app = serve;\n",
  'packages/server/src/uses-internal.ts':
    "import { serve } from './modules/feature/feature.service.js';\nexport const a = serve;\n",
  'packages/server/src/test/uses-repository.ts':
    "import { rows } from '../modules/other/other.repository.js';\nexport const b = rows;\n",
  'packages/server/src/core/time.ts': 'export const now = () => 1;\n',
  // Allowed: a type from where the app is assembled (as core/ reads the AppContext type).
  'packages/server/src/core/typed.ts': "import type { app } from '../app.js';\nexport type App = typeof app;\n",
  'packages/server/src/core/uses-feature.ts':
    "import { serve } from '../modules/feature/feature.service.js';\nexport const x = serve;\n",
  'packages/server/src/db/uses-access.ts': "import { viewer } from '../access/viewer.js';\nexport const y = viewer;\n",
  'packages/server/src/access/viewer.ts': "import { now } from '../core/time.js';\nexport const viewer = now;\n",
  'packages/server/src/access/uses-feature.ts':
    "import { serve } from '../modules/feature/feature.service.js';\nexport const z = serve;\n",
  'packages/server/src/access/uses-assembly.ts': "import { app } from '../app.js';\nexport const w = app;\n",
  // Allowed: a feature stands on the access floor and on the ground.
  'packages/server/src/modules/feature/feature.service.ts':
    "import { viewer } from '../../access/viewer.js';\nimport { now } from '../../core/time.js';\n" +
    'export const serve = () => viewer() + now();\n',
  'packages/server/src/modules/feature/index.ts': "export { serve } from './feature.service.js';\n",
  'packages/server/src/modules/other/other.repository.ts': 'export const rows = () => [];\n',
  'packages/server/src/modules/other/other.service.ts':
    "import { rows } from './other.repository.js';\nexport const list = () => rows();\n",
  'packages/server/src/modules/other/index.ts': "export { list } from './other.service.js';\n",
  // Allowed: another module's public face.
  'packages/server/src/modules/feature/uses-face.ts':
    "import { list } from '../other/index.js';\nexport const c = list;\n",
  'packages/server/src/modules/feature/uses-repository.ts':
    "import { rows } from '../other/other.repository.js';\nexport const d = rows;\n",
  'packages/server/src/modules/feature/uses-internal.ts':
    "import { list } from '../other/other.service.js';\nexport const e = list;\n",
  'packages/web/src/first.tsx': "import { second } from './second';\nexport const first = () => second;\n",
  'packages/web/src/second.tsx': "import { first } from './first';\nexport const second = () => first;\n",
};

let dir;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-import-rules-'));
  for (const [file, text] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the import rules (.dependency-cruiser.cjs)', () => {
  it('refuse a circle, a feature or the access floor under the ground, a feature or the assembly under access, a module reached past its public face or its repository', () => {
    // The output `npm run lint` prints: a line per violation, "error <rule>: <from> → <to>".
    const run = spawnSync(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'err', 'packages'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const found = [...run.stdout.matchAll(/error ([a-z-]+): (\S+) →\s+(\S+)/g)].map(
      (m) => `${m[1]}: ${m[2]} -> ${m[3]}`,
    );
    expect(found.sort()).toEqual([
      'access-imports-no-feature: packages/server/src/access/uses-feature.ts -> packages/server/src/modules/feature/feature.service.ts',
      'assembly-uses-public-face: packages/server/src/test/uses-repository.ts -> packages/server/src/modules/other/other.repository.ts',
      'assembly-uses-public-face: packages/server/src/uses-internal.ts -> packages/server/src/modules/feature/feature.service.ts',
      'floors-import-no-assembly: packages/server/src/access/uses-assembly.ts -> packages/server/src/app.ts',
      'ground-imports-no-access: packages/server/src/db/uses-access.ts -> packages/server/src/access/viewer.ts',
      'ground-imports-no-feature: packages/server/src/core/uses-feature.ts -> packages/server/src/modules/feature/feature.service.ts',
      'module-public-face: packages/server/src/modules/feature/uses-internal.ts -> packages/server/src/modules/other/other.service.ts',
      'module-public-face: packages/server/src/modules/feature/uses-repository.ts -> packages/server/src/modules/other/other.repository.ts',
      'no-circular: packages/web/src/first.tsx -> packages/web/src/second.tsx',
      'no-foreign-repository: packages/server/src/modules/feature/uses-repository.ts -> packages/server/src/modules/other/other.repository.ts',
      'no-repository-outside-modules: packages/server/src/test/uses-repository.ts -> packages/server/src/modules/other/other.repository.ts',
    ]);
    // And the command fails on them, which fails `npm run lint`.
    expect(run.status).not.toBe(0);
  }, 30_000); // one dependency-cruiser process over the tree: the server project's budget for a test (30 s)
});
