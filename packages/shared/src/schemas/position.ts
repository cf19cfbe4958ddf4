import { z } from 'zod';
import { CONTROL_CHARS, noControlChars } from './common.js';
import { labeled } from './field-labels.js';

export type { ThreadPosition } from '../position.js';

/** The longest place name and address a thread's position may carry (the family's varchar(100)). */
export const POSITION_TEXT_MAX = 100;

/** A coordinate in degrees, as a number or a numeric string (the family's clients send decimal strings). */
const degrees = (limit: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
    z.number().min(-limit).max(limit),
  );

const positionText = (min: number) =>
  z.string().trim().min(min).max(POSITION_TEXT_MAX).refine(noControlChars, CONTROL_CHARS);

/**
 * Where a thread was written (thread.insertPosition in its category), in the family's shape: a place's coordinates
 * (WGS 84 degrees), its name (`location`, e.g. a shop or a park) and, optionally, its address.
 */
export const threadPosition = z.object({
  latitude: labeled(degrees(90), { zh: '纬度', en: 'Latitude' }),
  longitude: labeled(degrees(180), { zh: '经度', en: 'Longitude' }),
  location: labeled(positionText(1), { zh: '地点名称', en: 'Place name' }),
  address: labeled(positionText(0), { zh: '详细地址', en: 'Address' }).optional(),
});
export type ThreadPositionInput = z.infer<typeof threadPosition>;
