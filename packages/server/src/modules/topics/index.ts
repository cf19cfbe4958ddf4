// The public face of the topics module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { topicsRoutes } from './topics.routes.js';
export { existingTopicsNamedIn, listTopicsFor, topicsNamedIn } from './topics.service.js';
export { subscribeTopics } from './topics.subscriber.js';
