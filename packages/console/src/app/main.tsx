/** Start-up: device details, i18n, store and router, then the service worker once the page has loaded. */
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import { startDeviceDetailsBridge } from '../shared/device-details.ts';
import { startPushBridge } from '../shared/push-bridge.ts';
import { initI18n } from '../shared/i18n/i18n.ts';
import { setSessionInvalidHandler } from '../shared/auth/session-invalid.ts';
import { sessionLocked } from '../shared/state/session-slice.ts';
import { registerServiceWorker } from '../shared/pwa/service-worker.ts';
import { ROUTES } from '../shared/routes.ts';
import { createAppStore } from './store.ts';
import { createAppRouter } from './router.tsx';
// Shared styles in cascade order; each feature's own CSS comes with its lazy-loaded route, after these.
import '../shared/ui/styles/tokens.css';
import '../shared/ui/styles/base.css';
import '../shared/ui/styles/forms.css';
import '../shared/ui/styles/dialogs.css';
import '../shared/ui/styles/tables.css';

startDeviceDetailsBridge();
startPushBridge();
// The dictionary was asked for by index.html beside the scripts, so it is usually here by now. Waiting for it
// (briefly) lets React render the first screen once, with its words, instead of the splash and then the screen:
// on a slow phone's CPU that is a whole render less before the first screen shows. index.html's splash covers
// the wait; past the limit the app starts anyway and shows its own splash until the words arrive.
const I18N_WAIT_MS = 3_000;
const words = initI18n();

const store = createAppStore();
const router = createAppRouter(store);

// The cached data of the ended session is dropped at the next sign-in (see use-complete-sign-in.ts).
setSessionInvalidHandler(async () => {
  store.dispatch(sessionLocked());
  await router.navigate(ROUTES.login, { replace: true });
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// The first render as a transition: React renders it in slices of a few milliseconds and lets the browser
// paint and take input between them, instead of one long task on a slow phone's CPU.
const root = createRoot(container);
const start = () =>
  startTransition(() => {
    root.render(
      <StrictMode>
        <Provider store={store}>
          <RouterProvider router={router} />
        </Provider>
      </StrictMode>,
    );
  });
// A sign-in screen drawn in the page (decision 030) is painted once before the app's render replaces it: the
// paint is the screen's, whenever the scripts arrive.
// A hidden page paints no frame (and runs no animation frame): there the app starts after a moment anyway.
const drawnPainted = container.querySelector('[data-prerendered]')
  ? new Promise((resolve) => {
    window.requestAnimationFrame(() => window.setTimeout(resolve, 0));
    window.setTimeout(resolve, 100);
  })
  : null;
void Promise.race([words.catch(() => undefined), new Promise((resolve) => window.setTimeout(resolve, I18N_WAIT_MS))])
  .then(() => drawnPainted)
  .then(start);

// The service worker downloads the whole app shell: let the first screen load first.
if (document.readyState === 'complete') void registerServiceWorker();
else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
