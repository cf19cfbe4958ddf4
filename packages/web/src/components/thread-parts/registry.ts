import type { BountyPart, Forum, ThreadDetail } from '@luntan/shared';
import { THREAD_PART_PERMISSIONS, type ThreadPartType } from '@luntan/shared';
import type { ComponentType } from 'react';
import type { IconName } from '../ui/icon';
import { goodsPartUi } from './goods-part';
import { redPacketPartUi } from './red-packet-part';
import { votePartUi } from './vote-part';
import { bountyPartUi, type BountyDraft } from './bounty-part';
import { audioPartUi, filesPartUi, imagesPartUi, videoPartUi } from './media-parts';

/** What a part's editor gets: the body being written (undefined until filled) and where the thread goes. */
export interface PartEditorProps<B = unknown> {
  value: B | undefined;
  onChange: (value: B | undefined) => void;
  categoryId: number;
  /** The thread being edited, 0 for a new one. */
  threadId: number;
}

/** What a part's view gets: the body as thread.detail answered it for this viewer, and the thread. */
export interface PartViewProps<V = unknown> {
  body: V;
  thread: ThreadDetail;
}

/**
 * A part type's face in the web app: its button in the editor, its editor panel and its view on the thread page.
 * `fromView` turns what thread.detail answered back into a body the editor can send again (editing a thread).
 */
export interface ThreadPartUi<B = unknown, V = unknown> {
  type: ThreadPartType;
  /** The i18n key of its name (threadParts.names.<…>). */
  label: string;
  icon: IconName;
  Editor: ComponentType<PartEditorProps<B>>;
  View: ComponentType<PartViewProps<V>>;
  fromView: (view: V) => B;
  /** Whether what the editor holds can be sent (else the editor says what is missing and the thread waits). */
  ready?: (value: B | undefined) => boolean;
}

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
