// The public face of the emoji module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { emojiRoutes } from './emoji.routes.js';
export { imageEmojiIn } from './emoji.service.js';
export { unicodeEmojiChar } from './unicode-emoji.js';
