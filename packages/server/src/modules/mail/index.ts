// The public face of the mail module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { mailRoutes } from './mail.routes.js';
export {
  assertEmailFree,
  emailTaken,
  isEmailRace,
  linkBase,
  newUserEmail,
  ownEmail,
  startRegistrationLink,
} from './mail.service.js';
