/**
 * Service worker registration (vite-plugin-pwa, registerType 'prompt'): "App ready to work offline"
 * once precached, and a waiting-update prompt whose Reload activates the new version and reloads.
 */
import { toastNotice } from '../ui/toast-store.ts';

type Listener = () => void;
let applyUpdate: ((reloadPage?: boolean) => Promise<void>) | null = null;
let updateWaiting = false;
const listeners = new Set<Listener>();

export const updatePrompt = {
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  isWaiting: () => updateWaiting,
  dismiss() {
    updateWaiting = false;
    listeners.forEach((l) => l());
  },
  /**
   * Tells the waiting worker to take over and reloads once it controls the page. The reload hangs on
   * 'controllerchange' because the plugin reloads only when a worker already controlled the page at
   * registration, which is not so during a first visit.
   */
  async reload() {
    if (!applyUpdate || !('serviceWorker' in navigator)) return window.location.reload();
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    await applyUpdate(false);
  },
};

export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    // Loaded after start-up so workbox-window is not part of the first download.
    const { registerSW } = await import('virtual:pwa-register');
    applyUpdate = registerSW({
      immediate: true,
      onOfflineReady() {
        toastNotice('pwa.offlineReady');
      },
      onNeedRefresh() {
        updateWaiting = true;
        listeners.forEach((l) => l());
      },
      onRegisterError(error: unknown) {
        console.error('Service worker registration failed', error);
      },
    });
  } catch (error) {
    console.error('Service worker registration failed', error);
  }
}
