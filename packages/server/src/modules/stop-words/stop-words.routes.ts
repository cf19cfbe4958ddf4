import {
  stopWordsBatchBody,
  stopWordsDeleteBody,
  stopWordsDeleteQuery,
  stopWordsQuery,
  describeProblem,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invalidField } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import { exportStopWords, importStopWords, listStopWordsPage, removeStopWords } from './stop-words.service.js';

export async function stopWordsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, events } = app.ctx;

  api.get(
    '/stop-words.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['stop-words', 'admin'],
        summary: 'List stop words, newest first; filter is a part of the word (any case)',
        querystring: stopWordsQuery,
      },
    },
    async (request) => ok(request, await listStopWordsPage(db, request.query)),
  );

  api.post(
    '/stop-words/batch.v2',
    {
      onRequest: adminOnly,
      // 10,000 lines of up to 1,000 characters.
      bodyLimit: 12 * 1024 * 1024,
      schema: {
        tags: ['stop-words', 'admin'],
        summary: 'Import stop words (at most 10,000 lines); answers created, updated and skipped counts',
        description:
          'Lines: `word` (every type {REPLACE} with **), `word=text` (every type {REPLACE} with text), ' +
          '`word={MOD}` / `{BANNED}` / `{IGNORE}` / `{REPLACE}` (that action for every type), or ' +
          '`word=ugc|username|signature|dialog|nickname` (one action or replacement text per type; without a ' +
          'fifth part the nickname follows the username). `{n}` in a word matches up to n characters of anything. ' +
          'overwrite=true: existing words take the new actions (updated); false: they are skipped. All or none: ' +
          'a line that cannot be read refuses the batch (-4001 data.words.<index>).',
        body: stopWordsBatchBody,
      },
    },
    async (request) => ok(request, await importStopWords(db, events, requireUser(request.viewer).id, request.body)),
  );

  api.delete(
    '/stop-words.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['stop-words', 'admin'],
        summary: 'Delete stop words: id ("3" or "3,4") in the query string or the JSON body',
        querystring: stopWordsDeleteQuery,
        body: stopWordsDeleteBody,
      },
    },
    async (request) => {
      const ids = request.query.id ?? request.body?.id;
      if (!ids) throw invalidField('id', describeProblem('id', { kind: 'required' }, stopWordsDeleteQuery));
      return ok(request, await removeStopWords(db, events, requireUser(request.viewer).id, ids));
    },
  );

  api.get(
    '/stop-words/export.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['stop-words', 'admin'],
        summary: 'Every stop word as a batch line (word=ugc|username|signature|dialog|nickname), oldest first',
      },
    },
    async (request) => ok(request, await exportStopWords(db)),
  );
}
