// The public face of the stop-words module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { StopWordMatcher } from './stop-word-matcher.js';
export { stopWordBenchmarkFixture } from './stop-words.benchmark.js';
export { stopWordsRoutes } from './stop-words.routes.js';
export { StopWordCache, screenText, wordRefused } from './stop-words.service.js';
