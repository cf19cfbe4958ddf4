// The public face of the groups module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { addUserToGroup, findDefaultGroup, findGroup, isAdministrator, listGroups } from './groups.repository.js';
export { groupsRoutes } from './groups.routes.js';
export { displayGroupOfUser, groupNotFound } from './groups.service.js';
