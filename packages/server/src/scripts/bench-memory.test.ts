import { describe, expect, it } from 'vitest';
import { descendants, memoryChecks, parseVmRss } from './bench-memory.js';

describe('bench memory', () => {
  it('reads VmRSS from /proc/<pid>/status', () => {
    expect(parseVmRss('Name:\tnode\nVmPeak:\t 900 kB\nVmRSS:\t  123456 kB\nRssAnon:\t 1 kB\n')).toBe(123456 * 1024);
    expect(parseVmRss('Name:\tzombie\n')).toBeUndefined();
  });

  it('judges each process against 150 MB idle and 400 MB under load', () => {
    const MB = 2 ** 20;
    expect(memoryChecks({ pid: 1, role: 'main', idle: 149 * MB, load: 401 * MB })).toEqual([
      { label: 'idle < 150 MB', met: true },
      { label: 'load < 400 MB', met: false },
    ]);
    expect(memoryChecks({ pid: 2, role: 'worker', idle: undefined, load: 10 * MB })).toHaveLength(1);
  });

  it.runIf(process.platform === 'linux')('finds the processes below a process', () => {
    expect(descendants(process.ppid).map((p) => p.pid)).toContain(process.pid);
    expect(descendants(2 ** 22 + 1)).toEqual([]);
  });
});
