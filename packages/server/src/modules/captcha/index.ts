// The public face of the captcha module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { captchaRoutes } from './captcha.routes.js';
export { assertCaptcha, assertPublishCaptcha, ensureCaptchaSecret, needsCaptchaToPublish } from './captcha.service.js';
