// The public face of the goods module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { goodsPart } from './goods.part.js';
export { goodsRoutes } from './goods.routes.js';
