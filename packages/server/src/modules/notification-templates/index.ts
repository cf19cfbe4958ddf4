// The public face of the notification-templates module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { DEFAULT_TEMPLATES, EARLIER_DEFAULTS } from './default-templates.js';
export { notificationTemplatesRoutes } from './notification-templates.routes.js';
export { renderNotice } from './notification-templates.service.js';
