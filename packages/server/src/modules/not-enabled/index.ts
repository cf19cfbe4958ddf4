// The public face of the not-enabled module: what the app's assembly may use from it (docs/architecture.md,
// "Modules"). Files inside the module import each other directly.
export { NOT_ENABLED_CALLS, notEnabledRoutes } from './not-enabled.routes.js';
