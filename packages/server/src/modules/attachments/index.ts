// The public face of the attachments module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { findAttachment, linkAttachments } from './attachments.repository.js';
export { attachmentsRoutes } from './attachments.routes.js';
export { presentAttachment } from './attachments.service.js';
export {
  durationOf as durationOfAttachment,
  fileStoreKey as attachmentFileKey,
  mediaMimeType as mediaMimeTypeOf,
} from './files.js';
export { sniffImage, storeImage } from './images.js';
export { extensionOfName, storeFile } from './files.js';
