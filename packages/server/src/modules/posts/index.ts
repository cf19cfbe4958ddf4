// The public face of the posts module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { postsRoutes } from './posts.routes.js';
export { countApprovedPost, listPosts } from './posts.service.js';
