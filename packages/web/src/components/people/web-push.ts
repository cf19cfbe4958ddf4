/**
 * This browser's side of Web Push (the server's is modules/push): whether it can receive pushes, and its
 * subscription, made with the site's VAPID key through the service worker that platform/service-worker.ts registers.
 * Imported by the personal centre's push settings only, so it stays in that page's chunk (not under platform/,
 * which the build puts in every page's entry chunk: vite.config.ts, APP_CORE).
 */

/** Push needs a service worker, the Push API and a secure context (https, or localhost). */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    window.isSecureContext
  );
}

/** A base64url text (the server's VAPID public key) as bytes: what PushManager.subscribe takes. */
export function base64urlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** How long the service worker may take to become active before turning push on gives up. */
const WORKER_READY_MS = 15_000;
/**
 * How long the browser's push service may take to register this device. Chromium with no reachable push service
 * (an offline machine) never answers; the page says so rather than spin.
 */
const PUSH_SERVICE_MS = 30_000;

/** The promise's value, or a TimeoutError (a DOMException, as the browser's own errors) once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException(`${what} within ${ms / 1000} s`, 'TimeoutError')), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The active service worker's registration, registering /sw.js first when the page has none (it failed at load). */
export async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  const container = navigator.serviceWorker;
  if (!(await container.getRegistration('/'))) await container.register('/sw.js', { scope: '/' });
  return within(container.ready, WORKER_READY_MS, 'the service worker did not start');
}

/**
 * Subscribes this browser with the site's VAPID public key (base64url). When the push service has not answered in
 * time, a subscription that still arrives later is dropped: the server never heard of it.
 */
export async function subscribePush(registration: ServiceWorkerRegistration, key: string): Promise<PushSubscription> {
  const made = registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: base64urlToBytes(key),
  });
  try {
    return await within(made, PUSH_SERVICE_MS, 'the push service did not answer');
  } catch (error) {
    made.then((late) => late.unsubscribe()).catch(() => false);
    throw error;
  }
}

/** This browser's current subscription, or null (also when no service worker is registered yet). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
}

/** The error's name and message, for a sentence that says what the browser answered. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message ? `${error.name}: ${error.message}` : error.name;
  return String(error);
}
