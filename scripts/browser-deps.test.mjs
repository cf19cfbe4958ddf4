import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planBrowserDeps } from './browser-deps.mjs';

const READY = { chromium: true, fonts: true, aptGet: true, root: true, sudo: false };

describe('planBrowserDeps', () => {
  it('does nothing when the browser and the fonts are there', () => {
    expect(planBrowserDeps(READY)).toEqual({ action: 'ready' });
    expect(planBrowserDeps({ ...READY, aptGet: false, root: false, chromiumPath: '/opt/chromium' })).toEqual({
      action: 'ready',
    });
  });

  it('installs what is missing with apt-get as root, saying so in one line', () => {
    const plan = planBrowserDeps({ ...READY, chromium: false });
    expect(plan).toMatchObject({
      action: 'install',
      packages: ['chromium'],
      command: ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'],
    });
    expect(plan.line).toMatch(/^Browser tests: installing chromium with apt-get/);
    expect(planBrowserDeps({ ...READY, fonts: false })).toMatchObject({ packages: ['fonts-noto-cjk'] });
  });

  it('installs through sudo when it asks for no password', () => {
    const plan = planBrowserDeps({ ...READY, chromium: false, fonts: false, root: false, sudo: true });
    expect(plan).toMatchObject({ action: 'install', packages: ['chromium', 'fonts-noto-cjk'] });
    expect(plan.command.slice(0, 2)).toEqual(['sudo', '-n']);
    expect(plan.line).toContain('with sudo apt-get');
  });

  it('says what to install when apt-get may not be used', () => {
    const noSudo = planBrowserDeps({ ...READY, chromium: false, fonts: false, root: false, sudo: false });
    expect(noSudo.action).toBe('fail');
    expect(noSudo.line).toContain('sudo apt-get install chromium fonts-noto-cjk');
    expect(noSudo.line).toContain('CHROMIUM_PATH');

    const noApt = planBrowserDeps({ ...READY, fonts: false, aptGet: false });
    expect(noApt.action).toBe('fail');
    expect(noApt.line).toContain('fonts-noto-cjk');
    expect(noApt.line).not.toContain('apt-get');
    // The browser is there: no word about another one.
    expect(noApt.line).not.toContain('CHROMIUM_PATH');
  });

  it('never installs over a CHROMIUM_PATH that points nowhere', () => {
    const plan = planBrowserDeps({ ...READY, chromium: false, chromiumPath: '/nowhere/chromium' });
    expect(plan.action).toBe('fail');
    expect(plan.line).toContain('CHROMIUM_PATH=/nowhere/chromium');
  });

  it('writes every message as one line', () => {
    for (const machine of [
      { ...READY, chromium: false },
      { ...READY, chromium: false, fonts: false, root: false },
      { ...READY, chromium: false, aptGet: false },
      { ...READY, chromium: false, fonts: false, chromiumPath: '/x' },
    ]) {
      expect(planBrowserDeps(machine).line).not.toContain('\n');
    }
  });
});

describe('npm test on a machine without what the browser tests need', () => {
  const testScript = fileURLToPath(new URL('./test.mjs', import.meta.url));

  it('without apt-get: says in one line what is missing and exits non-zero before building anything', () => {
    // A PATH with fontconfig's fc-list when the machine has it, but neither apt-get nor npm: nothing can be
    // installed, and had the check let it through, the build could not even start.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-path-'));
    try {
      if (fs.existsSync('/usr/bin/fc-list')) fs.symlinkSync('/usr/bin/fc-list', path.join(bin, 'fc-list'));
      const result = spawnSync(process.execPath, [testScript], {
        env: { PATH: bin, HOME: os.tmpdir(), CHROMIUM_PATH: path.join(bin, 'no-chromium-here') },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const lines = `${result.stdout}${result.stderr}`.split('\n').filter((l) => l.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Browser tests: CHROMIUM_PATH=.*no-chromium-here is not an executable file/);
      expect(result.status).toBe(1);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });

  // Root, as on CI: an apt-get that stands in for Debian's (it records its calls and "installs" the fonts by adding
  // an fc-list that finds one), and node itself as the "browser", so that only the fonts are missing.
  it.runIf(process.getuid?.() === 0)('as root with apt-get: says so in one line, then installs the fonts', () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-path-'));
    try {
      fs.symlinkSync('/usr/bin/env', path.join(bin, 'env'));
      fs.writeFileSync(
        path.join(bin, 'apt-get'),
        [
          '#!/bin/sh',
          // Only builtins and absolute paths: this PATH has no dirname or chmod.
          'here="${0%/*}"',
          'echo "$DEBIAN_FRONTEND $*" >> "$here/apt-get.log"',
          'if [ "$1" = install ]; then printf \'#!/bin/sh\\necho "Noto Sans CJK SC"\\n\' > "$here/fc-list"; /bin/chmod +x "$here/fc-list"; fi',
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      const result = spawnSync(process.execPath, [testScript], {
        env: { PATH: bin, HOME: os.tmpdir(), CHROMIUM_PATH: process.execPath },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const apt = fs.readFileSync(path.join(bin, 'apt-get.log'), 'utf8').trim().split('\n');
      expect(apt).toEqual(['noninteractive update -qq', 'noninteractive install -y -qq fonts-noto-cjk']);
      expect(result.stdout.split('\n')[0]).toBe(
        'Browser tests: installing fonts-noto-cjk with apt-get (missing on this machine)...',
      );
      // Past the check: the suites were started (and, with no npm on this PATH, could not build).
      expect(result.stdout).toContain('=== build');
      expect(result.status).not.toBe(0);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
