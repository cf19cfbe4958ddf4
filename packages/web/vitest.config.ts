import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const sharedSource = fileURLToPath(new URL('../shared/src/index.ts', import.meta.url));
const sdkSource = fileURLToPath(new URL('../plugin-sdk/src/index.ts', import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@luntan/shared': sharedSource, '@luntan/plugin-sdk': sdkSource },
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // The files share one worker's module graph (much faster to start); test/setup.ts resets shared state.
    isolate: false,
  },
});
