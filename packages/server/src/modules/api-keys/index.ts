// The public face of the API keys module (docs/architecture.md, "Modules"); the keys are read by the access floor
// (access/api-keys.repository.ts).
export { apiKeysRoutes } from './api-keys.routes.js';
