import { describe, expect, it } from 'vitest';
import { pageTotal } from './page-total.js';

describe('pageTotal', () => {
  const counted = (n: number) => {
    const count = () => {
      count.calls++;
      return Promise.resolve(n);
    };
    count.calls = 0;
    return count;
  };

  it('takes the total from a page that is not full, and from an empty first page, without counting', async () => {
    const count = counted(99);
    expect(await pageTotal(3, 0, 20, count)).toBe(3);
    expect(await pageTotal(1, 40, 20, count)).toBe(41);
    expect(await pageTotal(0, 0, 20, count)).toBe(0);
    expect(count.calls).toBe(0);
  });

  it('counts a full page, and a page past the end', async () => {
    const count = counted(57);
    expect(await pageTotal(20, 0, 20, count)).toBe(57);
    expect(await pageTotal(0, 60, 20, count)).toBe(57);
    expect(count.calls).toBe(2);
  });
});
