import { createRequire } from 'node:module';
import type AliyunSdk from '@alicloud/dysmsapi20170525';
import type * as AliyunOpenApi from '@alicloud/openapi-client';
import type { FastifyBaseLogger } from 'fastify';
import type { sms as TencentSms } from 'tencentcloud-sdk-nodejs-sms';

/*
 * The providers' SDKs are CommonJS modules of 13 to 17 MB each in memory: they are required when a provider is
 * first made, so a forum that sends no SMS (or uses the other provider) never holds them. Aliyun's client class is
 * its `default` export; Node's ESM loader and the test runner disagree on what a default import of it is, and a
 * require reads alike in both.
 */
const require = createRequire(import.meta.url);
const tencentSms = (): typeof TencentSms => (require('tencentcloud-sdk-nodejs-sms') as { sms: typeof TencentSms }).sms;
const aliyun = (): typeof AliyunSdk => require('@alicloud/dysmsapi20170525') as typeof AliyunSdk;
const aliyunOpenApi = (): typeof AliyunOpenApi => require('@alicloud/openapi-client') as typeof AliyunOpenApi;

/**
 * One adapter over the ways a code reaches a phone. `log` writes the message to the server log (development and
 * tests, SMS_PROVIDER=log); `tencent` and `aliyun` send it through the providers' official SDKs with the back
 * office's keys (settings tag `sms`).
 */
export interface SmsProvider {
  readonly name: 'log' | 'tencent' | 'aliyun';
  /** Sends the verification code to a mainland number; throws when the provider refuses. */
  sendCode(mobile: string, code: string, minutes: number): Promise<void>;
}

/** The back office's SMS settings (tag `sms`). */
export interface SmsSettings {
  smsProvider: string;
  smsSignName: string;
  smsTemplateId: string;
  tencentSecretId: string;
  tencentSecretKey: string;
  tencentSmsSdkAppId: string;
  tencentSmsRegion: string;
  aliyunAccessKeyId: string;
  aliyunAccessKeySecret: string;
}

/** Where an SDK sends its calls: the provider's own address unless a test points it at a local stand-in. */
export interface SmsEndpoint {
  /** host[:port] */
  host: string;
  protocol: 'http' | 'https';
}

export class SmsProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly providerCode: string,
    message: string,
  ) {
    super(`${provider} SMS refused: ${providerCode} ${message}`);
    this.name = 'SmsProviderError';
  }
}

/** The text a log provider writes, as a real template would read. */
export function codeText(signName: string, code: string, minutes: number): string {
  return `【${signName || 'Luntan'}】您的验证码是 ${code}，${minutes} 分钟内有效。如非本人操作，请忽略本短信。`;
}

export class LogSmsProvider implements SmsProvider {
  readonly name = 'log';
  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly signName: string,
  ) {}

  sendCode(mobile: string, code: string, minutes: number): Promise<void> {
    // One line holding the number and the whole text: development reads its codes here, and so do the tests.
    this.log.info({ sms: { mobile, text: codeText(this.signName, code, minutes) } }, `SMS to ${mobile}`);
    return Promise.resolve();
  }
}

/** Tencent Cloud SMS (API 2021-01-11, SendSms): the template's one parameter is the code. */
export class TencentSmsProvider implements SmsProvider {
  readonly name = 'tencent';
  readonly client: InstanceType<typeof TencentSms.v20210111.Client>;

  constructor(
    private readonly settings: SmsSettings,
    endpoint?: SmsEndpoint,
  ) {
    this.client = new (tencentSms().v20210111.Client)({
      credential: { secretId: settings.tencentSecretId, secretKey: settings.tencentSecretKey },
      region: settings.tencentSmsRegion || 'ap-guangzhou',
      profile: {
        httpProfile: {
          reqTimeout: 10,
          ...(endpoint ? { endpoint: endpoint.host, protocol: `${endpoint.protocol}://` } : {}),
        },
      },
    });
  }

  /** The request SendSms is given (also what the tests check). */
  request(mobile: string, code: string) {
    return {
      PhoneNumberSet: [`+86${mobile}`],
      SmsSdkAppId: this.settings.tencentSmsSdkAppId,
      SignName: this.settings.smsSignName,
      TemplateId: this.settings.smsTemplateId,
      TemplateParamSet: [code],
    };
  }

  async sendCode(mobile: string, code: string): Promise<void> {
    const answer = await this.client.SendSms(this.request(mobile, code));
    const status = answer.SendStatusSet?.[0];
    if (status?.Code !== 'Ok') {
      throw new SmsProviderError('tencent', status?.Code ?? 'NoStatus', status?.Message ?? '');
    }
  }
}

/** Aliyun SMS (Dysmsapi 2017-05-25, SendSms): the template's variable is ${code}. */
export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun';
  readonly client: InstanceType<typeof AliyunSdk.default>;

  constructor(
    private readonly settings: SmsSettings,
    endpoint?: SmsEndpoint,
  ) {
    this.client = new (aliyun().default)(
      new (aliyunOpenApi().Config)({
        accessKeyId: settings.aliyunAccessKeyId,
        accessKeySecret: settings.aliyunAccessKeySecret,
        endpoint: endpoint?.host ?? 'dysmsapi.aliyuncs.com',
        protocol: endpoint?.protocol ?? 'https',
        readTimeout: 10_000,
        connectTimeout: 5_000,
      }),
    );
  }

  request(mobile: string, code: string) {
    return new (aliyun().SendSmsRequest)({
      phoneNumbers: mobile,
      signName: this.settings.smsSignName,
      templateCode: this.settings.smsTemplateId,
      templateParam: JSON.stringify({ code }),
    });
  }

  async sendCode(mobile: string, code: string): Promise<void> {
    const answer = await this.client.sendSms(this.request(mobile, code));
    if (answer.body?.code !== 'OK') {
      throw new SmsProviderError('aliyun', answer.body?.code ?? 'NoBody', answer.body?.message ?? '');
    }
  }
}

/** Whether the back office's settings name a provider and everything it needs. */
export function isConfigured(s: SmsSettings): boolean {
  const common = s.smsSignName !== '' && s.smsTemplateId !== '';
  if (s.smsProvider === 'tencent') {
    return common && s.tencentSecretId !== '' && s.tencentSecretKey !== '' && s.tencentSmsSdkAppId !== '';
  }
  if (s.smsProvider === 'aliyun') return common && s.aliyunAccessKeyId !== '' && s.aliyunAccessKeySecret !== '';
  return false;
}

/**
 * The provider to send with: the log provider when the environment says so (SMS_PROVIDER=log), else the one the back
 * office configured, else none (SMS is off: -9001).
 */
export function chooseSmsProvider(
  environment: 'log' | undefined,
  settings: SmsSettings,
  log: FastifyBaseLogger,
  endpoint?: SmsEndpoint,
): SmsProvider | null {
  if (environment === 'log') return new LogSmsProvider(log, settings.smsSignName);
  if (!isConfigured(settings)) return null;
  return settings.smsProvider === 'tencent'
    ? new TencentSmsProvider(settings, endpoint)
    : new AliyunSmsProvider(settings, endpoint);
}
