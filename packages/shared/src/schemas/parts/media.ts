import { z } from 'zod';
import { bodyId } from '../categories.js';
import { labeled } from '../field-labels.js';
import { problem } from '../../validation-messages.js';
import { httpAddress } from './common.js';

const oneSource = (idKey: string) =>
  problem({
    kind: 'sentence',
    zh: `需要上传的文件（${idKey}）或一个 http(s) 媒体地址（mediaUrl），二者选一`,
    en: `Give either an uploaded file (${idKey}) or an http(s) media address (mediaUrl)`,
  });

const mediaUrl = labeled(httpAddress(), { zh: '媒体地址', en: 'Media address' });
const posterId = labeled(bodyId, { zh: '封面', en: 'Poster' });

/**
 * Audio (part 102, thread.insertAudio), in the family's shape (AudioBusi): `audioId`, an attachment of type 2 the
 * poster uploaded; or, for imported threads, `mediaUrl`, an http(s) address of the sound played where it lies.
 */
export const audioPartBody = z
  .object({
    audioId: labeled(bodyId, { zh: '音频', en: 'Audio' }).optional(),
    mediaUrl: mediaUrl.optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.audioId === undefined) === (b.mediaUrl === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['audioId'], ...oneSource('audioId') });
    }
  });
export type AudioPartBody = z.infer<typeof audioPartBody>;

/**
 * Video (part 103, thread.insertVideo), in the family's shape (VideoBusi): `videoId`, an attachment of type 3, or
 * `mediaUrl` for imports; `posterId`, an image the poster uploaded (the editor captures a frame of the video).
 */
export const videoPartBody = z
  .object({
    videoId: labeled(bodyId, { zh: '视频', en: 'Video' }).optional(),
    mediaUrl: mediaUrl.optional(),
    posterId: posterId.optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.videoId === undefined) === (b.mediaUrl === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['videoId'], ...oneSource('videoId') });
    }
  });
export type VideoPartBody = z.infer<typeof videoPartBody>;

/** Part 102 or 103 as thread.detail answers it. */
export interface MediaPart {
  /** The attachment's id; null for an external address. */
  id: number | null;
  fileName: string;
  format: string;
  fileSize: number;
  /** Seconds, 0 when unknown (the player reads it from the file's metadata then). */
  duration: number;
  /** Where to play it from (served with HTTP Range); "" when the viewer may not play it. */
  url: string;
  /** The poster image (video), "" when none. */
  posterUrl: string;
  /** The MIME type for <source type>, "" for an external address. */
  mimeType: string;
  /** Whether the viewer may play it (video: thread.viewVideo; a paid thread: bought). */
  canPlay: boolean;
}
