/*
 * zod as the browser build sees it (vite.config.ts points `zod` here). zod compiles each object schema's parser
 * with `new Function` when it may, and first probes whether it may: under our Content-Security-Policy (no
 * 'unsafe-eval') that probe is refused, and the browser reports a violation on every page that defines a schema,
 * although zod then parses without it. `jitless` skips the probe. It must be set before any schema is made, so
 * here, in the module every schema module imports zod through: its body runs after zod's and before theirs.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
