import type { BountyPart, Forum } from '@luntan/shared';
import { THREAD_PART_PERMISSIONS, type ThreadPartType } from '@luntan/shared';
import { goodsPartUi } from './goods-part';
import { redPacketPartUi } from './red-packet-part';
import { votePartUi } from './vote-part';
import { bountyPartUi, type BountyDraft } from './bounty-part';
import { audioPartUi, filesPartUi, imagesPartUi, videoPartUi } from './media-parts';

export type { ThreadPartUi } from './types';
import type { ThreadPartUi } from './types';

/** The part types the web app writes and shows, in the order the editor offers them. */
export const THREAD_PART_UIS: readonly ThreadPartUi[] = [
  goodsPartUi as unknown as ThreadPartUi,
  redPacketPartUi as unknown as ThreadPartUi,
  votePartUi as unknown as ThreadPartUi,
  bountyPartUi satisfies ThreadPartUi<BountyDraft, BountyPart | null> as unknown as ThreadPartUi,
  imagesPartUi as unknown as ThreadPartUi,
  filesPartUi as unknown as ThreadPartUi,
  audioPartUi as unknown as ThreadPartUi,
  videoPartUi as unknown as ThreadPartUi,
];

export const partUi = (type: number): ThreadPartUi | undefined => THREAD_PART_UIS.find((ui) => ui.type === type);

/** Whether the viewer may put a part of this type into a thread of the category (the server checks it too). */
export function mayInsertPart(forum: Forum | null, type: ThreadPartType, categoryId: number): boolean {
  if (!forum?.user) return false;
  if (forum.user.isAdmin) return true;
  const key = THREAD_PART_PERMISSIONS[type];
  return forum.permissions.some((p) => p === key || p === `category${categoryId}.${key}`);
}
