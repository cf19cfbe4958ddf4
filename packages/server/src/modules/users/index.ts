// The public face of the users module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { insertGeneratedPassword, stillGeneratedPassword } from './generated-passwords.repository.js';
export {
  changePassword,
  checkOwnPassword,
  hashPassword,
  isLegacyHash,
  replacePassword,
  upgradeLegacyPassword,
  verifyPassword,
  type PasswordThrottle,
} from './passwords.js';
export { applyUsernameChoice, checkUsernameChoice, isUsernameTaken, usernameTaken } from './usernames.js';
export {
  findUserById,
  findUserByMobile,
  findUserByUsername,
  insertUser,
  normalizeUsername,
  updateUser,
} from './users.repository.js';
