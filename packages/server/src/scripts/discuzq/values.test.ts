import { describe, expect, it } from 'vitest';
import { afterEach } from 'vitest';
import { cents, int, json, parseOffset, ref, setSiteOffset, time } from './values.js';

describe('Discuz! Q values', () => {
  it('reads yuan as cents digit by digit', () => {
    expect(cents('12.50')).toBe(1250);
    expect(cents('0.29')).toBe(29);
    expect(cents('0.1')).toBe(10);
    expect(cents('-3.05')).toBe(-305);
    expect(cents('7')).toBe(700);
    expect(cents('99999999.99')).toBe(9_999_999_999);
    expect(cents(null)).toBe(0);
    expect(cents('abc')).toBe(0);
    expect(cents(1.15)).toBe(115);
  });

  afterEach(() => setSiteOffset(480));

  it("reads times on the site's clock (Asia/Shanghai by default) as UTC ISO strings, zero dates as none", () => {
    expect(time('2021-01-30 08:09:10')).toBe('2021-01-30T00:09:10.000Z');
    expect(time('2021-01-30')).toBe('2021-01-29T16:00:00.000Z');
    setSiteOffset(0);
    expect(time('2021-01-30 08:09:10')).toBe('2021-01-30T08:09:10.000Z');
    expect(parseOffset('+08:00')).toBe(480);
    expect(parseOffset('-0530')).toBe(-330);
    expect(parseOffset('Z')).toBe(0);
    expect(parseOffset('+25:00')).toBeNull();
    expect(time('0000-00-00 00:00:00')).toBeNull();
    expect(time(null)).toBeNull();
  });

  it('reads ids, references and JSON', () => {
    expect(int('42')).toBe(42);
    expect(ref(0)).toBeNull();
    expect(ref('7')).toBe(7);
    expect(json('{"a":1}')).toEqual({ a: 1 });
    expect(json('not json')).toBeNull();
  });
});
