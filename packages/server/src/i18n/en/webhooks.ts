import type { Texts } from '../texts.js';
import type { webhooks as zh } from '../zh/webhooks.js';

/** The server's English messages: webhooks (the keys of zh/webhooks.ts). */
export const webhooks = {
  loopback: 'loopback',
  private: 'private',
  private2: 'private',
  linkLocal: 'link-local',
  unspecified: 'unspecified',
  carrierGradeNat: 'carrier-grade NAT',
  broadcast: 'broadcast',
  multicast: 'multicast',
  reserved: 'reserved',
  specialPurpose: 'special-purpose',
  webhookNotFound: 'Webhook not found',
  webhooksNotSentAddress: 'Webhooks may not be sent to a {{kindEn}} address: {{via}}{{address}}',
  hostCouldNotFound: 'The host {{host}} could not be found',
} as const satisfies Texts<typeof zh>;
