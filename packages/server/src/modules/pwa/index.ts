// The public face of the installable app's module (docs/architecture.md, "Modules").
export { pwaRoutes, THEME_COLOR } from './pwa.routes.js';
