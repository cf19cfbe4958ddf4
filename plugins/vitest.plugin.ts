import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/**
 * The vitest project of a first-party plugin (each plugin's vitest.config.ts calls this with its own URL): component
 * tests in happy-dom with React's automatic JSX, and the SDK and shared read from their sources (no build needed).
 */
export function pluginTestProject(configUrl: string): UserWorkspaceConfig {
  const root = fileURLToPath(new URL('.', configUrl));
  return defineProject({
    oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
    resolve: { conditions: ['source', ...defaultClientConditions] },
    ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
    test: {
      name: `plugin-${root.split('/').filter(Boolean).pop()}`,
      root,
      include: ['src/**/*.test.{ts,tsx}'],
      environment: 'happy-dom',
      restoreMocks: true,
    },
  });
}
