import { PLATFORM_BREAKPOINT_PX, type Platform } from '@luntan/shared';

export { platformFromUserAgent, type Platform } from '@luntan/shared';

/** Whether the screen is turned by 90 degrees (either way). */
export function isRotated(angle: number | undefined): boolean {
  if (angle === undefined || !Number.isFinite(angle)) return false;
  const normalised = ((angle % 360) + 360) % 360;
  return normalised === 90 || normalised === 270;
}

/**
 * In the browser: pc becomes h5 under 800 px; h5 becomes pc at 800 px or more unless the screen is rotated
 * by 90 degrees (a phone held sideways stays on the mobile layout).
 */
export function nextPlatform(current: Platform, width: number, rotationAngle?: number): Platform {
  if (current === 'pc' && width < PLATFORM_BREAKPOINT_PX) return 'h5';
  if (current === 'h5' && width >= PLATFORM_BREAKPOINT_PX && !isRotated(rotationAngle)) return 'pc';
  return current;
}

export function currentRotationAngle(): number | undefined {
  if (typeof window === 'undefined') return undefined;
  const angle = window.screen?.orientation?.angle;
  if (typeof angle === 'number') return angle;
  const legacy = (window as { orientation?: unknown }).orientation;
  return typeof legacy === 'number' ? legacy : undefined;
}
