import type { FastifyInstance } from 'fastify';
import { ok } from '../../core/envelope.js';
import { newChallenge } from './captcha.service.js';

export async function captchaRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  app.get(
    '/v3/captcha/challenge',
    {
      schema: {
        tags: ['captcha'],
        summary: 'A proof-of-work captcha challenge (ALTCHA v2, SHA-256), valid 10 minutes',
        description:
          'The page finds the counter whose derived key starts with keyPrefix and sends base64(JSON {challenge, ' +
          'solution: {counter, derivedKey}}) as `captcha` to the call that needs it: thread.create and posts.create ' +
          'when the poster’s group holds createThreadWithCaptcha, registration when registerCaptcha is on, login ' +
          'after three failures when loginCaptcha is on. A missing, wrong, expired or used one is -4001 (field ' +
          'captcha). A solution works once.',
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, await newChallenge(db));
    },
  );
}
