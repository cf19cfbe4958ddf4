import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { invalidField } from './errors.js';
import { msg } from '../i18n/index.js';

/**
 * How deep a JSON body may nest. No request of ours nests past a handful of levels; a body of 50,000 nested arrays
 * parses, but then overflows the stack of whatever walks it (a plugin, the serializer), so it is refused unread.
 */
export const MAX_JSON_DEPTH = 64;

const notUtf8 = () => invalidField('body', msg('core.sentNotValidUtf'));

const tooDeep = () => invalidField('body', msg('core.sentNestedTooDeeply', { maxJsonDepth: MAX_JSON_DEPTH }));

/**
 * Whether JSON text nests deeper than `max` arrays and objects. Written by hand: JSON.parse has no depth option and
 * the parsers that have one are not maintained; this only counts brackets outside strings, in one pass.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * The /api scope's JSON and plain-text parsers: the bytes must be UTF-8 (Node would otherwise decode what is not into
 * replacement characters, and the text would be stored so), and JSON may nest at most MAX_JSON_DEPTH levels. The JSON
 * itself is parsed by Fastify's own parser (which also refuses `__proto__` keys).
 */
export function registerBodyParsers(api: FastifyInstance): void {
  const { onProtoPoisoning, onConstructorPoisoning } = api.initialConfig;
  const parseJson = api.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  api.removeContentTypeParser(['application/json', 'text/plain']);
  api.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (!isUtf8(body)) return done(notUtf8(), undefined);
    const text = body.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(tooDeep(), undefined);
    void parseJson(request, text, done);
  });
  api.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    if (!isUtf8(body)) return done(notUtf8(), undefined);
    done(null, body.toString('utf8'));
  });
}
