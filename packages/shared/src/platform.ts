/** h5 is the mobile layout, pc the desktop one (spec section 4). */
export type Platform = 'h5' | 'pc';

const MOBILE_UA =
  /Android|webOS|iPhone|iPod|iPad|BlackBerry|IEMobile|Opera Mini|Mobile|MQQBrowser|MicroMessenger|HarmonyOS|OpenHarmony/i;

/**
 * On the server: mobile user agents get h5, every other one pc. The web app's render lays a page out by it, and the
 * server keeps rendered pages by it (modules/web), so the two must agree.
 */
export function platformFromUserAgent(userAgent: string | undefined): Platform {
  return userAgent && MOBILE_UA.test(userAgent) ? 'h5' : 'pc';
}
