// The public face of the installable app's module (docs/architecture.md, "Modules").
export { pwaRoutes } from './pwa.routes.js';
