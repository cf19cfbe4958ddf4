import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The repository's own scripts (`npm test`'s set-up). */
export default defineConfig({
  test: {
    name: 'scripts',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.mjs'],
    environment: 'node',
  },
});
