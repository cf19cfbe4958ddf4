#!/usr/bin/env node
/**
 * Moves the server's inline message pairs (`{ zh: '…', en: '…' }`) into the catalogues
 * (packages/server/src/i18n/{zh,en}/<feature>.ts) and writes `msg('<feature>.<key>', { vars })` in their place.
 *
 *   node scripts/server-messages-to-catalogue.mjs <file or folder under packages/server/src> ...
 *   node scripts/server-messages-to-catalogue.mjs --list        # the files that still hold inline pairs
 *
 * The feature is the module's folder (modules/wallet → wallet), `core` or `access`; the key comes from the English
 * words. A template's `${expr}` becomes `{{name}}` (an identifier keeps its name, `a.b` becomes `b`, anything else
 * `value`, `value2` …) and the call passes `{ name: expr }`, so each language's text stays what it was. After a run:
 * rename a key where the words chose badly, run prettier on the touched files, then typecheck and test.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SRC = path.join(ROOT, 'packages/server/src');
const I18N = path.join(SRC, 'i18n');

const LIT = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\`(?:[^\`\\$]|\\.|\$\{[^}]*\}|\$(?!\{))*\``;
const PAIR = new RegExp(String.raw`\{\s*zh:\s*(${LIT}),\s*en:\s*(${LIT}),?\s*\}`, 'g');
const STOP = new Set([
  'the',
  'a',
  'an',
  'is',
  'are',
  'be',
  'to',
  'of',
  'this',
  'that',
  'it',
  'and',
  'or',
  'in',
  'at',
  'for',
  'your',
  'please',
  'has',
  'have',
  'was',
  'with',
  'by',
  'as',
  'its',
  'must',
  'what',
  'may',
]);

function walk(target) {
  const full = path.resolve(target);
  if (statSync(full).isDirectory()) return readdirSync(full).flatMap((name) => walk(path.join(full, name)));
  return full.endsWith('.ts') && !full.endsWith('.test.ts') && !full.startsWith(I18N) ? [full] : [];
}

function featureOf(file) {
  const rel = path.relative(SRC, file).split(path.sep);
  const name = rel[0] === 'modules' ? rel[1] : rel.length > 1 ? rel[0] : 'app';
  return name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
}

/** A literal's text, with each `${expr}` given as a placeholder through `name(expr)`. */
function decode(literal, name) {
  const quote = literal[0];
  let body = literal.slice(1, -1);
  if (quote === '`') body = body.replace(/\$\{([^}]*)\}/g, (_, expr) => `{{${name(expr.trim())}}}`);
  return body.replace(/\\(.)/g, (_, c) => ({ n: '\n', t: '\t' })[c] ?? c);
}

const quoteText = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

function keyFrom(english, taken) {
  const words = english
    .replace(/\{\{\w+\}\}/g, ' ')
    .toLowerCase()
    .match(/[a-z0-9]+/g) ?? ['message'];
  const kept = words.filter((w) => !STOP.has(w));
  const chosen = (kept.length > 0 ? kept : words).slice(0, 4);
  const base = chosen
    .map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1)))
    .join('')
    .replace(/^\d/, 'n$&');
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}${n}`;
  return key;
}

function catalogueFile(lang, feature) {
  const file = path.join(I18N, lang, `${feature}.ts`);
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    lang === 'zh'
      ? `/** The server's Chinese messages: ${feature}. */\nexport const ${feature} = {\n} as const;\n`
      : `import type { Texts } from '../texts.js';\nimport type { ${feature} as zh } from '../zh/${feature}.js';\n\n` +
          `/** The server's English messages: ${feature} (the keys of zh/${feature}.ts). */\n` +
          `export const ${feature} = {\n} as const satisfies Texts<typeof zh>;\n`,
  );
  return file;
}

function appendEntries(file, entries) {
  const text = readFileSync(file, 'utf8');
  const close = text.lastIndexOf('\n} as const');
  const lines = entries.map(([key, value]) => `  ${key}: ${quoteText(value)},`).join('\n');
  writeFileSync(file, `${text.slice(0, close)}\n${lines}${text.slice(close)}`);
}

function writeIndexImports() {
  const features = readdirSync(path.join(I18N, 'zh'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  const list = (lang) =>
    features.map((f) => `import { ${f} as ${lang}${f[0].toUpperCase()}${f.slice(1)} } from './${lang}/${f}.js';`);
  const obj = (lang) =>
    `export const ${lang} = { ${features.map((f) => `${f}: ${lang}${f[0].toUpperCase()}${f.slice(1)}`).join(', ')} };`;
  const body = [
    '// Written by scripts/server-messages-to-catalogue.mjs: every feature catalogue, by language.',
    ...list('zh'),
    ...list('en'),
    '',
    obj('zh'),
    obj('en'),
    '',
  ];
  writeFileSync(path.join(I18N, 'catalogues.ts'), body.join('\n'));
}

function convert(file) {
  let source = readFileSync(file, 'utf8');
  if (!PAIR.test(source)) return 0;
  PAIR.lastIndex = 0;
  if (/\bmsg\b/.test(source)) {
    console.warn(`skipped (already names msg): ${path.relative(ROOT, file)}`);
    return 0;
  }
  const feature = featureOf(file);
  const zhFile = catalogueFile('zh', feature);
  const enFile = catalogueFile('en', feature);
  const taken = new Set([...readFileSync(zhFile, 'utf8').matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]));
  const added = [];
  let count = 0;
  source = source.replace(PAIR, (_, zhLit, enLit) => {
    const vars = new Map(); // expression -> name
    const name = (expr) => {
      if (vars.has(expr)) return vars.get(expr);
      const chain = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*?)(?:\.\w+\(\))?$/.exec(expr)?.[1];
      const call = /^([A-Za-z_$][\w$]*)\(/.exec(expr)?.[1];
      const parts = (chain ?? '').split('.');
      let base = chain ? parts.at(-1) : (call ?? 'value');
      if ((base === 'zh' || base === 'en') && parts.length > 1)
        base = `${parts.at(-2)}${base[0].toUpperCase()}${base.slice(1)}`;
      if (/^[A-Z0-9_]+$/.test(base)) base = base.toLowerCase().replace(/_(\w)/g, (_, c) => c.toUpperCase());
      let unique = base;
      for (let n = 2; [...vars.values()].includes(unique); n++) unique = `${base}${n}`;
      vars.set(expr, unique);
      return unique;
    };
    const zhText = decode(zhLit, name);
    const enText = decode(enLit, name);
    const key = keyFrom(enText, taken);
    taken.add(key);
    added.push([key, zhText, enText]);
    count++;
    const args = [...vars].map(([expr, n]) => (expr === n ? n : `${n}: ${expr}`));
    return `msg('${feature}.${key}'${args.length ? `, { ${args.join(', ')} }` : ''})`;
  });
  appendEntries(
    zhFile,
    added.map(([k, z]) => [k, z]),
  );
  appendEntries(
    enFile,
    added.map(([k, , e]) => [k, e]),
  );
  let importPath = path.relative(path.dirname(file), path.join(I18N, 'index.js'));
  if (!importPath.startsWith('.')) importPath = `./${importPath}`;
  const importLine = `import { msg } from '${importPath}';\n`;
  const imports = [...source.matchAll(/^import [^;]*;\n/gm)];
  const at = imports.length ? imports.at(-1).index + imports.at(-1)[0].length : 0;
  source = source.slice(0, at) + importLine + source.slice(at);
  writeFileSync(file, source);
  console.log(`${path.relative(ROOT, file)}: ${count} message(s) -> ${feature}`);
  return count;
}

const args = process.argv.slice(2);
if (args[0] === '--list') {
  for (const file of walk(SRC)) {
    const source = readFileSync(file, 'utf8');
    const n = [...source.matchAll(PAIR)].length;
    // A pair whose texts are not literals (`zh: a ? '…' : '…'`) is left to a person: split it into two keys.
    const other = [...source.replace(PAIR, '').matchAll(/\bzh:\s*(?!string\b|\{)\S/g)].length;
    if (n + other > 0) console.log(`${path.relative(ROOT, file)}: ${n}${other ? ` (+${other} by hand)` : ''}`);
  }
} else {
  let total = 0;
  for (const file of args.flatMap(walk)) total += convert(file);
  writeIndexImports();
  console.log(`${total} message(s) moved`);
}
