import { emojiUnicodeQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { requestLocale } from '../../core/i18n.js';
import { listImageEmoji } from './emoji.service.js';
import { unicodeEmojiSet } from './unicode-emoji.js';

export async function emojiRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  api.get(
    '/v3/emoji',
    {
      config: { guestCache: true },
      schema: {
        tags: ['emoji'],
        summary: "The site's image emoji, as the family answers them: [{id, category, url, code, order}]",
      },
    },
    async (request) => ok(request, await listImageEmoji(db)),
  );

  api.get(
    '/v3/emoji.unicode',
    {
      config: { guestCache: true },
      schema: {
        tags: ['emoji'],
        summary: 'The Unicode emoji by category, with GitHub shortcodes and names in the asked (or the page) language',
        querystring: emojiUnicodeQuery,
      },
    },
    async (request) => ok(request, unicodeEmojiSet(request.query.locale ?? requestLocale(request))),
  );
}
