// The public face of the people module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { peopleRoutes } from './people.routes.js';
export { blockBetween, likesVisibleTo, readProfile } from './people.service.js';
