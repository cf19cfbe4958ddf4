import { smsCodeBody, smsResetPasswordBody, smsSendBody, smsVerifyBody } from '@luntan/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { answerSession } from '../auth/index.js';
import { loginRequired } from '../../access/guards.js';
import { bindMobile, loginBySms, rebindMobile, resetPasswordBySms, sendCode, verifyCode } from './sms.service.js';

const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
});

const CODES =
  'Codes: 6 digits, 5 minutes, one use, void after 5 wrong answers. -9001 SMS is off (no provider), -9002 wrong ' +
  'code (Data.triesLeft), -9003 expired, used or void (ask for a new one).';

/** Phones and SMS codes, in the family's names (users/sms.*). See docs/sms.md. */
export async function smsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['auth'];

  api.post(
    '/v3/users/sms.send',
    {
      config: { identity: true },
      schema: {
        tags,
        summary: 'Send a code by SMS: type login, bind, rebind, reset_pwd or verify; Data.interval is the countdown',
        description:
          'Mainland numbers only (1[3-9] and 9 digits). bind and rebind refuse a number bound to someone (-4003); ' +
          'verify only the signed-in member’s own number; login for an unknown number when registration is closed ' +
          '-4002; reset_pwd for an unknown number answers success and sends nothing. One code per number per ' +
          'SMS_INTERVAL_SECONDS (60), SMS_DAILY_LIMIT (10) a day, RATE_LIMIT_SMS_ADDRESS (30) requests an hour per ' +
          'address: -4029 with Data.retryAfter. ' +
          CODES,
        body: smsSendBody,
      },
    },
    async (request) => ok(request, await sendCode(ctx, request.viewer, request.body, request.ip)),
  );

  api.post(
    '/v3/users/sms.verify',
    {
      config: { identity: true },
      schema: {
        tags,
        summary: 'Check a code; type verify (signed in, own number) also proves the number for sms.rebind',
        description:
          'A verify code is used up and lets sms.rebind change the number within 10 minutes (once). Codes of the ' +
          'other types are only checked here (a wrong answer counts); their own call uses them. ' +
          CODES,
        body: smsVerifyBody,
      },
    },
    async (request) => {
      await verifyCode(ctx, request.viewer, request.body);
      return ok(request, {});
    },
  );

  api.post(
    '/v3/users/sms.login',
    {
      config: { identity: true },
      schema: {
        tags,
        summary: 'Sign in with a number and its login code; a first sign-in registers (unless registration is closed)',
        description:
          'Answers exactly what username.login answers (the session, its cookie). A new member gets a generated ' +
          'username and the masked number as nickname, and is reviewed (registerValidate) or owes sign-in fields ' +
          'as a registration would. ' +
          CODES,
        body: smsCodeBody,
      },
    },
    async (request, reply) => {
      const session = await loginBySms(ctx, request.body, clientOf(request));
      return ok(request, await answerSession(request, reply, ctx.db, session));
    },
  );

  api.post(
    '/v3/users/sms.bind',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: { tags, summary: 'Bind a first number to the signed-in member (bind code)', body: smsCodeBody },
    },
    async (request) => {
      await bindMobile(ctx, request.viewer, request.body);
      return ok(request, {});
    },
  );

  api.post(
    '/v3/users/sms.rebind',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Change the bound number: the new number’s rebind code, after sms.verify (type verify) of the old',
        description: 'Without a verify of the current number in the last 10 minutes: -4002. ' + CODES,
        body: smsCodeBody,
      },
    },
    async (request) => {
      await rebindMobile(ctx, request.viewer, request.body);
      return ok(request, {});
    },
  );

  api.post(
    '/v3/users/sms.reset.pwd',
    {
      config: { identity: true },
      schema: {
        tags,
        summary: 'Set a new password with a reset_pwd code; every session of the account is signed out',
        body: smsResetPasswordBody,
      },
    },
    async (request) => {
      await resetPasswordBySms(ctx, request.body);
      return ok(request, {});
    },
  );
}
