// The public face of the content module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { freeCharCount, freeContent, freeFractionOf, freeSummary, indexedBody, plainLength } from './paid-content.js';
export {
  mentionCandidates,
  plainText,
  renderContent,
  renderMarkdown,
  renameMentions,
  replaceLiterally,
  summarize,
  topicNames,
} from './post-content.js';
export type { MentionTarget, RenderedContent } from './post-content.js';
export type { TopicRef } from './topic-links.js';
export { loneLinkUrls } from './link-cards.js';
