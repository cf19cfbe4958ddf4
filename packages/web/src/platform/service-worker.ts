/**
 * Registers the forum's service worker (/sw.js, served by the server's modules/pwa): the installable app, its
 * offline page and Web Push. Where the browser has none, or the page is not a secure context (a plain http address
 * other than localhost), nothing happens. After the page has loaded, so it never competes with the first render.
 */
export function registerServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.warn('The service worker could not be registered', error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
