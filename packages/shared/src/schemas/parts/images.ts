import { z } from 'zod';
import { bodyId } from '../categories.js';
import { labeled } from '../field-labels.js';

export const IMAGES_PART_MAX = 9;

/**
 * Images (part 101, thread.insertImage), in the family's shape (ImageBusi): ids of images the poster uploaded
 * (POST /api/v3/attachments, type=image), shown as a gallery under the text. Images put in the Markdown text are
 * shown where they stand, as before.
 */
export const imagesPartBody = z.object({
  imageIds: labeled(z.array(bodyId).min(1).max(IMAGES_PART_MAX), { zh: '图片', en: 'Images' }),
});
export type ImagesPartBody = z.infer<typeof imagesPartBody>;

/** One image of part 101 as thread.detail answers it. */
export interface ImagePartItem {
  id: number;
  fileName: string;
  width: number;
  height: number;
  url: string;
  thumbUrl: string;
}

/** Part 101 as thread.detail answers it: empty while the viewer may not read the thread whole. */
export interface ImagesPart {
  images: ImagePartItem[];
}
