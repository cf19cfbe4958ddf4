import { Code, type ThreadPosition, type ThreadPositionInput } from '@luntan/shared';
import type { Updateable } from 'kysely';
import { fieldError } from '../../core/errors.js';
import type { Thread, ThreadsTable } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { msg } from '../../i18n/index.js';

/*
 * A thread's position (the family's threads.longitude, latitude, address, location): where it was written, given on
 * thread.create and thread.update as `position`. Setting one needs thread.insertPosition in the thread's category;
 * removing it (`position: null` on update) needs only the right to edit the thread.
 */

/** Setting a position needs thread.insertPosition in the category (-4002, said on the position field). */
export function assertMaySetPosition(
  viewer: ViewerContext,
  categoryId: number,
  position: ThreadPositionInput | null | undefined,
): void {
  if (position && !can(viewer, 'thread.insertPosition', categoryId)) {
    throw fieldError(Code.UNAUTHORIZED, 'position', msg('threads.noPositionPermission'));
  }
}

/** The thread's columns for a position given (none when undefined; cleared when null). */
export function positionColumns(position: ThreadPositionInput | null | undefined): Updateable<ThreadsTable> {
  if (position === undefined) return {};
  if (position === null) return { longitude: null, latitude: null, address: '', location: '' };
  return {
    longitude: position.longitude,
    latitude: position.latitude,
    address: position.address ?? '',
    location: position.location,
  };
}

/** The thread's position as lists and the detail answer it, or null. */
export function presentPosition(
  t: Pick<Thread, 'longitude' | 'latitude' | 'address' | 'location'>,
): ThreadPosition | null {
  if (t.longitude === null || t.latitude === null) return null;
  return {
    longitude: Number(t.longitude),
    latitude: Number(t.latitude),
    address: t.address,
    location: t.location,
  };
}
