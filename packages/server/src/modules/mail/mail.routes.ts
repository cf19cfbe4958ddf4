import { emailBindBody, emailVerifyBody, passwordForgotBody, passwordResetBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { loginAccountKey } from '../../core/rate-limit.js';
import {
  bindEmail,
  forgotPassword,
  linkBase,
  MAIL_LINK_MINUTES,
  MAIL_SENDS_PER_HOUR,
  resetPassword,
  verifyEmail,
} from './mail.service.js';

/** A member's e-mail address and the forgotten password, both through links mailed over SMTP (core/mail.ts). */
export async function mailRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['auth'];
  const budget = `At most ${MAIL_SENDS_PER_HOUR} links an hour per address and per account.`;
  const mailOff = "Without SMTP (SMTP_URL, or the back office's smtpUrl) -4001 with Data.mailEnabled false.";
  app.addHook('onClose', async () => ctx.mail.close());

  api.post(
    '/v3/users/email.bind',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Mail a verification link to an address (it becomes yours when the link is opened)',
        description:
          `The link works once, for ${MAIL_LINK_MINUTES} minutes; a newer link replaces older ones. An address ` +
          `another member verified is -4003. ${budget} (-4029). ${mailOff} A failed send is -5004.`,
        body: emailBindBody,
      },
    },
    async (request) =>
      ok(request, await bindEmail(ctx, request.viewer, request.body.email, await linkBase(ctx, request))),
  );

  api.post(
    '/v3/users/email.verify',
    {
      config: { identity: true },
      schema: {
        tags,
        summary: "Open a verification link: the address becomes its member's, verified",
        description: 'No login needed (the link proves the address). A used, expired or unknown link is -4010.',
        body: emailVerifyBody,
      },
    },
    async (request) => ok(request, await verifyEmail(ctx, request.body.token)),
  );

  api.post(
    '/v3/users/password.forgot',
    {
      config: { identity: true },
      schema: {
        tags,
        summary: 'Mail a password-reset link to the verified address of an account (username or address)',
        description:
          'Always the same answer, whether or not the account exists or has a verified address. The link works ' +
          `once, for ${MAIL_LINK_MINUTES} minutes. ${budget} (beyond it nothing is sent, the answer unchanged). ` +
          mailOff,
        body: passwordForgotBody,
      },
    },
    async (request) => {
      await forgotPassword(ctx, request.body.account, await linkBase(ctx, request));
      return ok(request, { sent: true });
    },
  );

  api.post(
    '/v3/users/password.reset',
    {
      config: { identity: true },
      schema: {
        tags,
        summary: 'Set a new password with a reset link; every session of the member is signed out',
        description: 'The password follows the registration rules. A used, expired or unknown link is -4010.',
        body: passwordResetBody,
      },
    },
    async (request) => {
      const user = await resetPassword(ctx, request.body.token, request.body.password);
      // The owner proved the account: earlier failed sign-ins no longer slow it down.
      await ctx.limits.login.recordSuccess(loginAccountKey(user.id));
      return ok(request, { userId: user.id });
    },
  );
}
