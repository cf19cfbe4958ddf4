import { describe, expect, it } from 'vitest';
import { isRotated, nextPlatform, platformFromUserAgent } from './platform';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

describe('platform', () => {
  it('gives h5 to mobile user agents and pc to the others', () => {
    expect(platformFromUserAgent(IPHONE)).toBe('h5');
    expect(platformFromUserAgent(ANDROID)).toBe('h5');
    expect(platformFromUserAgent(DESKTOP)).toBe('pc');
    expect(platformFromUserAgent(undefined)).toBe('pc');
  });

  it('turns pc into h5 under 800 px', () => {
    expect(nextPlatform('pc', 799)).toBe('h5');
    expect(nextPlatform('pc', 800)).toBe('pc');
  });

  it('turns h5 into pc at 800 px or more unless the screen is rotated by 90 degrees', () => {
    expect(nextPlatform('h5', 800, 0)).toBe('pc');
    expect(nextPlatform('h5', 1200)).toBe('pc');
    expect(nextPlatform('h5', 799, 0)).toBe('h5');
    expect(nextPlatform('h5', 900, 90)).toBe('h5');
    expect(nextPlatform('h5', 900, -90)).toBe('h5');
    expect(nextPlatform('h5', 900, 270)).toBe('h5');
    expect(nextPlatform('h5', 900, 180)).toBe('pc');
  });

  it('knows a rotated screen', () => {
    expect(isRotated(90)).toBe(true);
    expect(isRotated(0)).toBe(false);
    expect(isRotated(undefined)).toBe(false);
  });
});
