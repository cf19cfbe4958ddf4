// The public face of the media module: a thread's files (part 108), audio (102), video (103) and images (101), and
// the routes that serve files, audio and video to those who may have them.
export { filesPart } from './files.part.js';
export { imagesPart } from './images.part.js';
export { audioPart, videoPart } from './media.part.js';
export { mediaRoutes } from './media.routes.js';
export { filesPriceCents } from './media.service.js';
