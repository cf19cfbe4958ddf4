import type { BrowserContextOptions } from 'playwright-core';

export type DeviceName = 'desktop' | 'mobile';

declare module 'vitest' {
  export interface ProvidedContext {
    device: DeviceName;
  }
}

export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

export const DEVICES: Record<DeviceName, BrowserContextOptions> = {
  desktop: {
    viewport: { width: 1366, height: 860 },
    userAgent: DESKTOP_UA,
    locale: 'zh-CN',
  },
  mobile: {
    viewport: { width: 390, height: 844 },
    userAgent: IPHONE_UA,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
  },
};
