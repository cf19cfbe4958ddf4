// The public face of the webhooks module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { WebhookDispatcher } from './webhook-dispatcher.js';
export { webhooksRoutes } from './webhooks.routes.js';
export { subscribeWebhooks } from './webhooks.subscriber.js';
