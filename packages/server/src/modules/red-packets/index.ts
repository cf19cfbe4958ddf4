// The public face of the red packets module (part 106): what the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { redPacketPart } from './red-packet.part.js';
export { redPacketsRoutes } from './red-packets.routes.js';
export { claimPacket, expireRedPacket, splitAmounts } from './red-packets.service.js';
export { RED_PACKETS_SUBSCRIBER, subscribeRedPackets } from './red-packets.subscriber.js';
