// The public face of the bounty module (bounty questions, 悬赏, part 107): what the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { bountyPart } from './bounty.part.js';
export { bountyRoutes } from './bounty.routes.js';
export { BOUNTY_SUBSCRIBER, subscribeBountyExpiry } from './bounty.service.js';
