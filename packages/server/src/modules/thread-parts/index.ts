// The public face of the thread-parts module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export {
  ThreadPartRegistry,
  type PartRead,
  type PartThread,
  type PartWrite,
  type ThreadPartHandler,
} from './thread-parts.registry.js';
export {
  applyThreadParts,
  assertMayWriteParts,
  partsHoldDraft,
  partTypesByThread,
  prepareThreadParts,
  presentThreadParts,
  threadPartRows,
} from './thread-parts.service.js';
export { threadPartsRoutes } from './thread-parts.routes.js';
