// The public face of the legacy-redirects module: what the app's assembly may use from it (docs/architecture.md,
// "Modules"). Files inside the module import each other directly.
export { legacyRedirectsRoutes } from './legacy-redirects.routes.js';
