// The public face of the invites module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { invitesRoutes } from './invites.routes.js';
export { acceptInvite, invitationRequired, inviteForRegistration } from './invites.service.js';
export type { AcceptedInvite } from './invites.service.js';
