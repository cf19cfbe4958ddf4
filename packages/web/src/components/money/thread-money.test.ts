import { describe, expect, it } from 'vitest';
import { freeFractionToSend, freePercentOf, keepPercent } from './thread-money';

describe("the editor's free part, a percent of the body sent as the freeWords fraction", () => {
  it('shows a fraction as a whole percent', () => {
    expect(freePercentOf(undefined)).toBe('0');
    expect(freePercentOf(0.3)).toBe('30');
    expect(freePercentOf(19 / 67)).toBe('28');
    expect(freePercentOf(1)).toBe('100');
  });

  it('keeps whole numbers from 0 to 100 while typing', () => {
    expect(keepPercent('')).toBe('');
    expect(keepPercent('30')).toBe('30');
    expect(keepPercent('3.5')).toBe('35');
    expect(keepPercent('-5')).toBe('5');
    expect(keepPercent('007')).toBe('7');
    expect(keepPercent('250')).toBe('100');
  });

  it('sends the fraction, and an untouched thread its own', () => {
    expect(freeFractionToSend('30')).toBe(0.3);
    expect(freeFractionToSend('')).toBe(0);
    expect(freeFractionToSend(undefined)).toBe(0);
    expect(freeFractionToSend('100')).toBe(1);
    expect(freeFractionToSend('28', 19 / 67)).toBe(19 / 67);
    expect(freeFractionToSend('40', 19 / 67)).toBe(0.4);
  });
});
