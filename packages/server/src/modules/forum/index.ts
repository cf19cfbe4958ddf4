// The public face of the forum module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { forumRoutes, readForum } from './forum.routes.js';
