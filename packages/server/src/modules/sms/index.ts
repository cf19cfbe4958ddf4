// The public face of the sms module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { smsRoutes } from './sms.routes.js';
export { isSmsEnabled, useOwnNumberCode } from './sms.service.js';
