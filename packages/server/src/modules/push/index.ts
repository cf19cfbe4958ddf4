// The public face of the push module (docs/architecture.md, "Modules").
export { pushRoutes } from './push.routes.js';
export { subscribePush } from './push.subscriber.js';
export { vapidKeys } from './push.repository.js';
