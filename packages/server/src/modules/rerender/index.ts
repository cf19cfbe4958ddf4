// The public face of the rerender module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { subscribeRerendering } from './rerender.subscriber.js';
export { renderPostsAgain } from './rerender.service.js';
