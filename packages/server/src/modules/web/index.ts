// The public face of the web module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { groupViewer, renderAsFromRequest } from './group-render.js';
export { pageApi, type PageApi } from './page-api.js';
export { seoRoutes } from './seo.routes.js';
export { webRoutes } from './web.routes.js';
