// The public face of the notifications module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { unreadCounters } from './message-centre.service.js';
export { notificationsRoutes } from './notifications.routes.js';
export { subscribeNotifications } from './notifications.subscriber.js';
