/** Who an avatar shows, as lists carry it. */
export interface AvatarUser {
  id: number;
  nickname: string;
  avatar: string;
}

/** A thread's or post's author as an avatar shows it. */
export function authorOf(user: { userId: number; nickname: string; avatar: string }): AvatarUser {
  return { id: user.userId, nickname: user.nickname, avatar: user.avatar };
}

export function userHref(userId: number): string {
  return `/user/${userId}`;
}

/** The card's states (spec section 4): closed, loading (each opening starts here), shown. */
export type CardPhase = 'closed' | 'loading' | 'shown';
