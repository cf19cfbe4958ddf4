import { z } from 'zod';
import { labeled } from './field-labels.js';

/**
 * The solution a captcha-guarded call takes in its `captcha` field: the ALTCHA payload (base64 of
 * `{challenge, solution}`), as the page's solver makes it from GET /api/v3/captcha/challenge.
 */
export const captchaField = labeled(z.string().max(4000), { zh: '人机验证', en: 'Captcha' });

/** GET /api/v3/captcha/challenge: an ALTCHA (v2) challenge, solved by proof of work in the browser. */
export interface CaptchaChallenge {
  parameters: {
    algorithm: string;
    nonce: string;
    salt: string;
    cost: number;
    keyLength: number;
    keyPrefix: string;
    keySignature?: string;
    expiresAt?: number;
    data?: Record<string, string | number | boolean | null>;
  };
  signature?: string;
}
