import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { currentRotationAngle, nextPlatform, type Platform } from './platform';

const PlatformContext = createContext<Platform>('pc');

/**
 * Starts from the platform the server picked (so hydration matches), then follows the window's width live.
 */
export function PlatformProvider({ initial, children }: { initial: Platform; children: ReactNode }) {
  const [platform, setPlatform] = useState<Platform>(initial);

  useEffect(() => {
    const update = (): void => {
      setPlatform((current) => nextPlatform(current, window.innerWidth, currentRotationAngle()));
    };
    update();
    window.addEventListener('resize', update);
    window.addEventListener('orientationchange', update);
    return () => {
      window.removeEventListener('resize', update);
      window.removeEventListener('orientationchange', update);
    };
  }, []);

  useEffect(() => {
    document.documentElement.dataset.platform = platform;
  }, [platform]);

  return <PlatformContext.Provider value={platform}>{children}</PlatformContext.Provider>;
}

export function usePlatform(): Platform {
  return useContext(PlatformContext);
}
