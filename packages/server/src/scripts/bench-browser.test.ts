import { describe, expect, it } from 'vitest';
import { median, totalBlockingTime } from './bench-browser.js';

describe('bench browser figures', () => {
  it('counts the part of each long task beyond 50 ms, from First Contentful Paint on', () => {
    const tasks = [
      { startTime: 100, duration: 300 }, // before FCP (at 1,000): not counted
      { startTime: 900, duration: 200 }, // straddles FCP: blocking from 950 to 1,100, counted from 1,000: 100
      { startTime: 1200, duration: 80 }, // 30
      { startTime: 1500, duration: 50 }, // exactly 50 ms: 0
      { startTime: 2000, duration: 120 }, // 70
    ];
    expect(totalBlockingTime(tasks, 1000)).toBe(200);
    expect(totalBlockingTime([], 1000)).toBe(0);
  });

  it('stops counting at the end of the window', () => {
    expect(totalBlockingTime([{ startTime: 1000, duration: 300 }], 500, 1200)).toBe(150);
    expect(totalBlockingTime([{ startTime: 3000, duration: 300 }], 500, 2000)).toBe(0);
  });

  it('takes the median', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
