import { describe, expect, it } from 'vitest';
import { changedSettings, settingDefinition, settingId } from './use-settings-form';

describe('changedSettings', () => {
  const defs = ['siteName', 'attachmentSizeLimit', 'alipayPrivateKey', 'wxpayApiV3Key'].map(settingDefinition);
  const initial = Object.fromEntries(defs.map((d) => [settingId(d), d.kind === 'number' ? 5 : 'old']));

  it('sends only what changed, numbers as numbers', () => {
    const values = { ...initial, 'default:siteName': 'new', 'default:attachmentSizeLimit': '12' };
    expect(changedSettings(defs, values, initial, new Set())).toEqual([
      { key: 'siteName', tag: 'default', value: 'new' },
      { key: 'attachmentSizeLimit', tag: 'default', value: 12 },
    ]);
  });

  it('never sends a secret left blank, and sends one typed anew', () => {
    const values = { ...initial, 'pay:alipayPrivateKey': ' ', 'pay:wxpayApiV3Key': 'k2' };
    const secrets = new Set(['alipayPrivateKey', 'wxpayApiV3Key']);
    expect(changedSettings(defs, values, initial, secrets)).toEqual([
      { key: 'wxpayApiV3Key', tag: 'pay', value: 'k2' },
    ]);
  });
});
