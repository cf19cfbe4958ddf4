// The public face of the link previews module (docs/architecture.md, "Modules").
export { fetchPreview } from './fetch-preview.js';
export { LinkPreviewWorker } from './link-preview-worker.js';
export { subscribeLinkPreviews } from './link-previews.subscriber.js';
