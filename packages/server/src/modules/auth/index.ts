// The public face of the auth module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { answerSession, authRoutes } from './auth.routes.js';
export { assertOpenWithoutInvitation, createMember, registerExternal, resetPassword, signIn } from './auth.service.js';
export type { ClientInfo } from './auth.service.js';
