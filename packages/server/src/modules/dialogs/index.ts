// The public face of the dialogs module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { dialogsRoutes } from './dialogs.routes.js';
export { unreadMessagesRow } from './dialogs.repository.js';
export { liveRoutes } from './live.routes.js';
export { subscribeLiveDelivery } from './live.subscriber.js';
