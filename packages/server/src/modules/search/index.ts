// The public face of the search module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { insertReplyIndex } from './reply-index.repository.js';
export type { ReplyIndexEntry } from './reply-index.repository.js';
export { parseKeywords } from './search-terms.js';
export { insertThreadIndex, titleHit } from './search.repository.js';
export type { ThreadIndexEntry } from './search.repository.js';
export { findUsers, searchRoutes } from './search.routes.js';
export { isSearchCandidate, matchedPostId, presentMatchedPosts, withSearchCandidates } from './search.service.js';
export type { ThreadSearch } from './search.service.js';
export { subscribeSearchIndexing } from './search.subscriber.js';
