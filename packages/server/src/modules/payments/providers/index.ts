export * from './types.js';
export { createAlipayProvider, missingAlipayConfig, type AlipayConfig } from './alipay.js';
export { createWxpayProvider, missingWxpayConfig, type WxpayConfig } from './wxpay.js';
