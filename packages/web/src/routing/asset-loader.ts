import { ASSET_LOAD_TIMEOUT_MS } from '@luntan/shared';

/**
 * Route chunks load lazily. A chunk that fails to load, or has not loaded after 3800 ms, is flagged as an asset
 * error (spec section 4); the page's error boundary then offers a reload instead of a blank screen.
 */
export const ASSET_ERROR_NAME = 'AssetError';

/** The spec's asset-loading messages (section 8). */
export const ASSET_MESSAGES = {
  script: 'Failed to load script',
  stylesheet: 'Failed to load stylesheet',
  route: 'Failed to lookup route',
  incomplete: 'Route did not complete loading',
  manifest: 'Failed to load client build manifest',
} as const;

export class AssetError extends Error {
  override name = ASSET_ERROR_NAME;
  readonly isAssetError = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Also recognises an asset error that crossed from server to browser as plain data. */
export function isAssetError(error: unknown): boolean {
  if (error instanceof AssetError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { name, message, isAssetError: flag } = error as { name?: unknown; message?: unknown; isAssetError?: unknown };
  if (flag === true || name === ASSET_ERROR_NAME) return true;
  return typeof message === 'string' && Object.values(ASSET_MESSAGES).some((m) => message.startsWith(m));
}

declare global {
  interface Window {
    /** Set before the page's scripts run (browser tests on a starved machine): the give-up time instead of 3800 ms. */
    __LUNTAN_ASSET_TIMEOUT_MS__?: number;
  }
}

/** How long a chunk or a plugin module may take before it is given up: the spec's 3800 ms unless the page says. */
export function assetLoadTimeoutMs(): number {
  const override = typeof window === 'undefined' ? undefined : window.__LUNTAN_ASSET_TIMEOUT_MS__;
  return typeof override === 'number' && override > 0 ? override : ASSET_LOAD_TIMEOUT_MS;
}

export function loadWithTimeout<T>(importer: () => Promise<T>, timeoutMs: number = assetLoadTimeoutMs()): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new AssetError(ASSET_MESSAGES.incomplete)), timeoutMs);
    importer().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new AssetError(ASSET_MESSAGES.script, { cause: error }));
      },
    );
  });
}

interface NetworkInformationLike {
  saveData?: boolean;
  effectiveType?: string;
}

/** Prefetching is skipped when the visitor asked to save data or is on a 2g connection. */
export function canPrefetch(connection: NetworkInformationLike | undefined = readConnection()): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return !(connection.effectiveType ?? '').includes('2g');
}

function readConnection(): NetworkInformationLike | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return (navigator as Navigator & { connection?: NetworkInformationLike }).connection;
}
