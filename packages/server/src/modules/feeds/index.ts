// The public face of the feeds module (docs/architecture.md, "Modules").
export { feedsRoutes } from './feeds.routes.js';
