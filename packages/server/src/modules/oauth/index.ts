// The public face of the oauth module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { accountForIdentity, linkIdentity } from './identities.service.js';
export type { OutsideIdentity } from './identities.service.js';
export { OAUTH_SIGN_IN_CALLS, oauthRoutes, redirectWithError, requestBase } from './oauth.routes.js';
export { OauthFlowError, STATE_TTL_MS, saveSignInState, takeSignInState } from './sign-in-flow.js';
