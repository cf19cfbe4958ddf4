// The public face of the threads module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { authorSeenBy, topicCreator } from './anonymous.js';
export type { AnonymousState } from './anonymous.js';
export { firstPostContentFor, readsWholeThread } from './paid-threads.service.js';
export { findPost, insertPost, replaceMentions, updatePostIf } from './post-rows.repository.js';
export { listPostVersions, recordPostEdit, setPostVersionHidden } from './post-versions.repository.js';
export { changeThreadState, lockThread } from './thread-state.js';
export {
  assertCanReadThread,
  assertMayPublish,
  canEditPost,
  canHidePost,
  canReadThread,
  denied,
  isPublished,
  postAbility,
  postExistsFor,
  postNotFound,
  threadExistsFor,
} from './thread.policy.js';
export type { ThreadState } from './thread.policy.js';
export { presentThreads } from './threads.presenter.js';
export {
  bumpThreadCounter,
  bumpUserCounter,
  findThread,
  findThreadDetail,
  likedPostIds,
  updateThreadIf,
  type ThreadDetailRead,
} from './threads.repository.js';
export type { ThreadRow } from './threads.repository.js';
export { threadsRoutes } from './threads.routes.js';
export { threadDetail } from './threads.service.js';
export { listThreadsFor } from './thread-list.service.js';
