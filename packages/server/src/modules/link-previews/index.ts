// The public face of the link previews module (docs/architecture.md, "Modules").
export { LinkPreviewWorker } from './link-preview-worker.js';
export { subscribeLinkPreviews } from './link-previews.subscriber.js';
