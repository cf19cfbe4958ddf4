import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: every package's and first-party plugin's own vitest project (unit, service and HTTP tests), and
 * the repository's scripts'.
 */
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'plugins/*/vitest.config.ts', 'scripts/vitest.config.mjs'],
  },
});
