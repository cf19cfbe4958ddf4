// What the browser tests need from the machine (a Chromium, and CJK fonts so that Chinese pages render as text in
// screenshots), and getting it: `npm test` installs Debian's packages when apt-get may be used, else says in one line
// what to install. The decision is a pure function (planBrowserDeps) so that it can be tested without touching the
// machine; the probes and the install are around it. Written by hand: each probe is a line or two of node:fs and
// node:child_process.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const DEBIAN_PACKAGES = { chromium: 'chromium', fonts: 'fonts-noto-cjk' };

/**
 * @typedef {object} Machine
 * @property {boolean} chromium   the browser is an executable file
 * @property {string} [chromiumPath] CHROMIUM_PATH, when set (it overrides the default and is never installed over)
 * @property {boolean} fonts      a CJK font is installed
 * @property {boolean} aptGet     apt-get is on PATH (a Debian or Ubuntu machine)
 * @property {boolean} root       this process runs as root
 * @property {boolean} sudo       sudo runs without asking for a password
 *
 * @typedef {{ action: 'ready' }
 *   | { action: 'install', packages: string[], command: string[], line: string }
 *   | { action: 'fail', line: string }} Plan
 */

/**
 * @param {Machine} m
 * @returns {Plan}
 */
export function planBrowserDeps(m) {
  if (m.chromiumPath && !m.chromium) {
    // Installing Debian's chromium would not help: the tests would still look where CHROMIUM_PATH says.
    return {
      action: 'fail',
      line: `Browser tests: CHROMIUM_PATH=${m.chromiumPath} is not an executable file; point it at a Chromium or unset it${m.fonts ? '' : `, and install ${DEBIAN_PACKAGES.fonts} (CJK fonts)`}, then run npm test again.`,
    };
  }
  const packages = [...(m.chromium ? [] : [DEBIAN_PACKAGES.chromium]), ...(m.fonts ? [] : [DEBIAN_PACKAGES.fonts])];
  if (packages.length === 0) return { action: 'ready' };
  const list = packages.join(' ');
  if (m.aptGet && (m.root || m.sudo)) {
    return {
      action: 'install',
      packages,
      // sudo drops the environment: the non-interactive front end is passed on the command line.
      command: [...(m.root ? [] : ['sudo', '-n']), 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'],
      line: `Browser tests: installing ${list} with ${m.root ? '' : 'sudo '}apt-get (missing on this machine)...`,
    };
  }
  const wanted = [...(m.chromium ? [] : ['Chromium']), ...(m.fonts ? [] : ['Noto CJK fonts'])].join(' and ');
  const how = m.aptGet ? `sudo apt-get install ${list}` : `your system's package of ${wanted}`;
  return {
    action: 'fail',
    line: `Browser tests need ${list}, which cannot be installed from here: install ${how}${m.chromium ? '' : ' (or set CHROMIUM_PATH to a Chromium)'}, then run npm test again.`,
  };
}

/** Whether `name` is an executable file in one of PATH's folders. */
function onPath(name, env) {
  return (env.PATH ?? '').split(path.delimiter).some((dir) => dir && isExecutable(path.join(dir, name)));
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A CJK font, as fontconfig (which Chromium uses) sees it, or else as dpkg knows Debian's package. */
function hasCjkFont(env) {
  if (onPath('fc-list', env)) {
    const result = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8', env });
    return result.status === 0 && result.stdout.trim() !== '';
  }
  if (onPath('dpkg-query', env)) {
    const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', DEBIAN_PACKAGES.fonts], { encoding: 'utf8', env });
    return result.status === 0 && result.stdout.includes('install ok installed');
  }
  return false;
}

/** The machine as it is now. @returns {Machine} */
export function probeMachine(env = process.env) {
  const chromiumPath = env.CHROMIUM_PATH || undefined;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = onPath('apt-get', env);
  return {
    chromium: isExecutable(chromiumPath ?? DEFAULT_CHROMIUM),
    ...(chromiumPath ? { chromiumPath } : {}),
    fonts: hasCjkFont(env),
    aptGet,
    root,
    sudo: aptGet && !root && onPath('sudo', env) && spawnSync('sudo', ['-n', 'true'], { env }).status === 0,
  };
}

/**
 * Makes sure the browser tests can run: installs what is missing when it may, else prints one line saying what to
 * install. Returns true when the browser tests can run.
 */
export function ensureBrowserDeps(env = process.env) {
  const plan = planBrowserDeps(probeMachine(env));
  if (plan.action === 'ready') return true;
  if (plan.action === 'fail') {
    console.error(plan.line);
    return false;
  }
  console.log(plan.line);
  const [command, ...prefix] = plan.command;
  const run = (args) => spawnSync(command, [...prefix, ...args], { stdio: 'inherit', env }).status === 0;
  const installed = run(['update', '-qq']) && run(['install', '-y', '-qq', ...plan.packages]);
  const after = planBrowserDeps(probeMachine(env));
  if (installed && after.action === 'ready') return true;
  console.error(
    `Browser tests: installing ${plan.packages.join(' ')} with apt-get failed; install them by hand, then run npm test again.`,
  );
  return false;
}

// `node scripts/browser-deps.mjs`: only the check (and install), as `npm test` does it first.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  process.exit(ensureBrowserDeps() ? 0 : 1);
}
