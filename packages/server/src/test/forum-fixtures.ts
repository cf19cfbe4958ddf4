/** The forum factories moved to factories.ts; this name stays for the test files that still import it. */
export * from './factories.js';
