// The public face of the wechat module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { WECHAT_SIGN_IN_CALLS, wechatRoutes } from './wechat.routes.js';
export { isWechatConfigured } from './wechat.service.js';
