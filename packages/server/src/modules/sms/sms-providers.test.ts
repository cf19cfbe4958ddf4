import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Writable } from 'node:stream';
import { startStandIn, type StandIn } from '../../test/stand-in-server.js';
import {
  AliyunSmsProvider,
  chooseSmsProvider,
  codeText,
  isConfigured,
  LogSmsProvider,
  SmsProviderError,
  TencentSmsProvider,
  type SmsSettings,
} from './sms-providers.js';

/*
 * The providers' official SDKs, offline: each client is pointed at a local stand-in for the provider's API, which
 * records what the SDK sent and answers as the provider documents.
 */

const settings = (over: Partial<SmsSettings> = {}): SmsSettings => ({
  smsProvider: 'tencent',
  smsSignName: '论坛',
  smsTemplateId: '1234567',
  tencentSecretId: 'AKIDexample',
  tencentSecretKey: 'secret-key',
  tencentSmsSdkAppId: '1400000000',
  tencentSmsRegion: 'ap-guangzhou',
  aliyunAccessKeyId: 'LTAIexample',
  aliyunAccessKeySecret: 'aliyun-secret',
  ...over,
});

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

const endpointOf = (s: StandIn) => ({ host: new URL(s.origin).host, protocol: 'http' as const });

describe('Tencent Cloud SMS', () => {
  it('sends SendSms (2021-01-11) signed with TC3, the number with +86, the sign, template and the code', async () => {
    standIn = await startStandIn(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        Response: {
          SendStatusSet: [{ SerialNo: 's1', PhoneNumber: '+8613800138000', Code: 'Ok', Message: 'send success' }],
          RequestId: 'r1',
        },
      }),
    }));
    const provider = new TencentSmsProvider(settings(), endpointOf(standIn));
    await provider.sendCode('13800138000', '042137');
    const [request] = standIn.requests;
    expect(request!.method).toBe('POST');
    expect(request!.headers['x-tc-action']).toBe('SendSms');
    expect(request!.headers['x-tc-version']).toBe('2021-01-11');
    expect(request!.headers['x-tc-region']).toBe('ap-guangzhou');
    expect(String(request!.headers.authorization)).toMatch(/^TC3-HMAC-SHA256 Credential=AKIDexample\//);
    expect(JSON.parse(request!.body)).toEqual({
      PhoneNumberSet: ['+8613800138000'],
      SmsSdkAppId: '1400000000',
      SignName: '论坛',
      TemplateId: '1234567',
      TemplateParamSet: ['042137'],
    });
  });

  it('a refused message becomes an SmsProviderError with the provider’s code', async () => {
    standIn = await startStandIn(() => ({
      status: 200,
      body: JSON.stringify({
        Response: {
          SendStatusSet: [{ Code: 'LimitExceeded.PhoneNumberDailyLimit', Message: 'daily limit' }],
          RequestId: 'r2',
        },
      }),
    }));
    const provider = new TencentSmsProvider(settings(), endpointOf(standIn));
    await expect(provider.sendCode('13800138000', '000000')).rejects.toThrow(SmsProviderError);
    await expect(provider.sendCode('13800138000', '000000')).rejects.toThrow(/PhoneNumberDailyLimit/);
  });
});

describe('Aliyun SMS', () => {
  it('sends SendSms (2017-05-25) signed with ACS3, the number, sign, template code and {"code": ...}', async () => {
    standIn = await startStandIn(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Code: 'OK', Message: 'OK', BizId: 'b1', RequestId: 'r1' }),
    }));
    const provider = new AliyunSmsProvider(
      settings({ smsProvider: 'aliyun', smsTemplateId: 'SMS_1' }),
      endpointOf(standIn),
    );
    await provider.sendCode('13800138000', '042137');
    const [request] = standIn.requests;
    const sent = new URL(request!.url, standIn.origin).searchParams;
    const param = (name: string) => sent.get(name);
    expect(request!.method).toBe('POST');
    expect(request!.headers['x-acs-action']).toBe('SendSms');
    expect(request!.headers['x-acs-version']).toBe('2017-05-25');
    expect(String(request!.headers.authorization)).toMatch(/^ACS3-HMAC-SHA256 Credential=LTAIexample,/);
    expect(param('PhoneNumbers')).toBe('13800138000');
    expect(param('SignName')).toBe('论坛');
    expect(param('TemplateCode')).toBe('SMS_1');
    expect(JSON.parse(param('TemplateParam')!)).toEqual({ code: '042137' });
  });

  it('a refused message becomes an SmsProviderError', async () => {
    standIn = await startStandIn(() => ({
      status: 200,
      body: JSON.stringify({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'limit', RequestId: 'r2' }),
    }));
    const provider = new AliyunSmsProvider(settings({ smsProvider: 'aliyun' }), endpointOf(standIn));
    await expect(provider.sendCode('13800138000', '000000')).rejects.toThrow(/BUSINESS_LIMIT_CONTROL/);
  });
});

describe('choosing a provider', () => {
  const lines: string[] = [];
  const log = pino(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  );

  it('SMS_PROVIDER=log wins; otherwise the back office’s provider once every key it needs is there', () => {
    expect(chooseSmsProvider('log', settings({ smsProvider: '' }), log)).toBeInstanceOf(LogSmsProvider);
    expect(chooseSmsProvider(undefined, settings(), log)).toBeInstanceOf(TencentSmsProvider);
    expect(chooseSmsProvider(undefined, settings({ smsProvider: 'aliyun' }), log)).toBeInstanceOf(AliyunSmsProvider);
    expect(chooseSmsProvider(undefined, settings({ smsProvider: '' }), log)).toBeNull();
    expect(isConfigured(settings({ tencentSecretKey: '' }))).toBe(false);
    expect(isConfigured(settings({ smsProvider: 'aliyun', aliyunAccessKeySecret: '' }))).toBe(false);
    expect(isConfigured(settings({ smsSignName: '' }))).toBe(false);
  });

  it('the log provider writes one line with the number and the text', async () => {
    await new LogSmsProvider(log, '论坛').sendCode('13800138000', '123456', 5);
    const line = lines.at(-1)!;
    expect(line.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(line)).toMatchObject({ sms: { mobile: '13800138000', text: codeText('论坛', '123456', 5) } });
  });
});
