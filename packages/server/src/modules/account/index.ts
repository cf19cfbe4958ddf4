// The public face of the account module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { accountRoutes } from './account.routes.js';
export { storeImportedProfileImage } from './account.service.js';
