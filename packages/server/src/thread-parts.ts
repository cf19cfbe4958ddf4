import type { AppContext } from './context.js';
import { goodsPart } from './modules/goods/index.js';
import { redPacketPart } from './modules/red-packets/index.js';
import { votePart } from './modules/votes/index.js';
import { bountyPart } from './modules/bounty/index.js';
import { audioPart, filesPart, imagesPart, videoPart } from './modules/media/index.js';

/**
 * The kinds of parts a thread may hold (modules/thread-parts), registered on every app before it serves: the one
 * place that knows both the threads module, which stores and presents parts through the registry, and the modules
 * that make each kind.
 */
export function registerThreadParts(ctx: AppContext): void {
  ctx.threadParts.register(goodsPart);
  ctx.threadParts.register(redPacketPart(ctx));
  ctx.threadParts.register(votePart);
  ctx.threadParts.register(bountyPart(ctx));
  ctx.threadParts.register(filesPart);
  ctx.threadParts.register(audioPart);
  ctx.threadParts.register(videoPart);
  ctx.threadParts.register(imagesPart);
}
