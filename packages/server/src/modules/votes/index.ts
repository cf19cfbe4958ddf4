// The public face of the votes module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { votePart } from './votes.part.js';
export { votesRoutes } from './votes.routes.js';
