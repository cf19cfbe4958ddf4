// The public face of the signin-fields module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { SUPPLEMENTARY_CALLS, signinFieldsRoutes } from './signin-fields.routes.js';
export { answersOf, registrationFields } from './signin-fields.service.js';
