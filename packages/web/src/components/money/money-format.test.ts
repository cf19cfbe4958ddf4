import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import {
  changeTypeLabel,
  checkAmount,
  keepAmountCharacters,
  orderStatusLabel,
  payTypeLabel,
  safeReturnPath,
  withdrawalFeeCents,
} from './money-format';
import { providerChoices } from './provider-pay';

describe('money on the page', () => {
  it('computes the withdrawal fee in integer cents, rounded up as the server does', () => {
    expect(withdrawalFeeCents(500, '0.60')).toBe(3); // 3.0 cents
    expect(withdrawalFeeCents(1000, '0.65')).toBe(7); // 6.5 → 7
    expect(withdrawalFeeCents(1000, '0.61')).toBe(7); // 6.1 → 7
    expect(withdrawalFeeCents(123_400, '1')).toBe(1234);
    expect(withdrawalFeeCents(123_456, '1')).toBe(1235);
    expect(withdrawalFeeCents(500, '0.00')).toBe(0);
    expect(withdrawalFeeCents(500, 'nonsense')).toBe(0);
  });

  it('checks a typed amount against the limits', () => {
    expect(checkAmount('20', '1.00', '5000.00')).toEqual({ ok: true, cents: 2000 });
    expect(checkAmount('20.5', '1.00', '5000.00')).toEqual({ ok: true, cents: 2050 });
    expect(checkAmount('0.5', '1.00', '5000.00')).toEqual({ ok: false, problem: 'min', limit: '1.00' });
    expect(checkAmount('6000', '1.00', '5000.00')).toEqual({ ok: false, problem: 'max', limit: '5000.00' });
    expect(checkAmount('1.234', '1.00', '5000.00')).toEqual({ ok: false, problem: 'format' });
    expect(checkAmount('0', '0.00', '0.00')).toEqual({ ok: false, problem: 'format' });
    expect(checkAmount('', '1.00', '5000.00')).toEqual({ ok: false, problem: 'format' });
  });

  it('keeps digits and one dot with two decimals while typing', () => {
    expect(keepAmountCharacters('12.345')).toBe('12.34');
    expect(keepAmountCharacters('1a2.3.4')).toBe('12.34');
    expect(keepAmountCharacters('-5')).toBe('5');
  });

  it('returns only to a same-site path', () => {
    expect(safeReturnPath('/wallet?recharged=A1')).toBe('/wallet?recharged=A1');
    expect(safeReturnPath('/thread/7')).toBe('/thread/7');
    expect(safeReturnPath('//evil.example/x')).toBe('/wallet');
    expect(safeReturnPath('/\\evil.example')).toBe('/wallet');
    expect(safeReturnPath('https://evil.example')).toBe('/wallet');
    expect(safeReturnPath('javascript:alert(1)')).toBe('/wallet');
    expect(safeReturnPath('/ok\n/x')).toBe('/wallet');
    expect(safeReturnPath(null)).toBe('/wallet');
    expect(safeReturnPath('')).toBe('/wallet');
  });

  it('offers the provider flavour of the layout', () => {
    expect(providerChoices([10, 11, 30, 31, 90], 'pc')).toEqual([10, 30, 90]);
    expect(providerChoices([10, 11, 30, 31, 90], 'h5')).toEqual([11, 31, 90]);
    expect(providerChoices([10], 'h5')).toEqual([10]);
    expect(providerChoices([], 'pc')).toEqual([]);
  });

  it('names every number in both languages, and unknown ones as other', () => {
    const zh = createI18n('zh').t;
    const en = createI18n('en').t;
    expect(changeTypeLabel(zh, 31)).toBe('充值');
    expect(changeTypeLabel(en, 10)).toBe('Withdrawal frozen');
    expect(changeTypeLabel(en, 77)).toBe('Other (77)');
    expect(orderStatusLabel(zh, 1)).toBe('已支付');
    expect(payTypeLabel(zh, 10)).toBe('微信支付');
    expect(payTypeLabel(zh, 31)).toBe('支付宝');
    expect(payTypeLabel(zh, 90)).toBe('沙箱支付（测试）');
    expect(payTypeLabel(en, 11)).toBe('WeChat Pay');
    expect(payTypeLabel(en, 30)).toBe('Alipay');
    expect(payTypeLabel(en, 90)).toBe('Sandbox (test)');
  });
});
