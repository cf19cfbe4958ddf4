/*
 * The thread parts' numbers and limits, plain values without a schema: the pages that show parts import these, and
 * importing them from the schema modules would load zod and every schema with them (about 35 kB and 130 ms at the
 * phone profile on a thread page). The schemas import them from here.
 */

/** The part types, numbered as the family numbers them (backend app/Modules/ThreadTom/TomConfig.php). */
export const ThreadPart = {
  IMAGE: 101,
  AUDIO: 102,
  VIDEO: 103,
  GOODS: 104,
  RED_PACKET: 106,
  REWARD: 107,
  FILES: 108,
  VOTE: 109,
} as const;
export type ThreadPartType = (typeof ThreadPart)[keyof typeof ThreadPart];

/** The group permission each part needs in the thread's category (the family's keys). */
export const THREAD_PART_PERMISSIONS: Readonly<Record<ThreadPartType, string>> = {
  101: 'thread.insertImage',
  102: 'thread.insertAudio',
  103: 'thread.insertVideo',
  104: 'thread.insertGoods',
  106: 'thread.insertRedPacket',
  107: 'thread.insertReward',
  108: 'thread.insertAttachment',
  109: 'thread.insertVote',
};

/** The family's limits (backend app/Modules/ThreadTom/Busi/VoteBusi.php): a title of 25, options of 50 characters. */
export const VOTE_TITLE_MAX = 25;
export const VOTE_OPTION_MAX = 50;
export const VOTE_OPTIONS_MIN = 2;
export const VOTE_OPTIONS_MAX = 20;
/** How far ahead a vote may end (ours; the family sets no limit): a year and a day, so "in one year" always fits. */
export const VOTE_LONGEST_MS = 366 * 24 * 60 * 60 * 1000;

/** The most a product's shown price may be: 1,000,000.00 (in cents). Only shown; nothing is sold through the forum. */
export const GOODS_PRICE_MAX_CENTS = 100_000_000;
export const GOODS_TITLE_MAX = 200;

/**
 * The audio and video formats accepted (the ones browsers play), by extension; the bytes must say the same
 * (sniffed on upload). The MIME type each is served with.
 */
export const AUDIO_FORMATS: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
};
export const VIDEO_FORMATS: Readonly<Record<string, string>> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
};
