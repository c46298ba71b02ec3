/** Everything around the screens: splash, theme, spinner, toasts and the update prompt. */
import { useEffect, useLayoutEffect, useState } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useGetOrgAppConfigQuery } from '../shared/config/config-api.ts';
import { useOrgTheme } from '../shared/config/use-org-theme.ts';
import { useAppDispatch, useAppSelector } from '../shared/state/hooks.ts';
import { setSplashScreen } from '../shared/state/main-slice.ts';
import { useServerEvents } from './use-server-events.ts';
import { Toaster } from '../shared/ui/toaster.tsx';
import { UpdateBanner } from '../shared/pwa/update-banner.tsx';
import { GlobalSpinner } from './global-spinner.tsx';
import { SplashScreen } from './splash-screen.tsx';

/** Whatever happens, the splash does not stay longer than this. */
const SPLASH_MAX_MS = 10_000;

function useElapsed(ms: number): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setDone(true), ms);
    return () => window.clearTimeout(timer);
  }, [ms]);
  return done;
}

export function RootLayout() {
  const dispatch = useAppDispatch();
  const splash = useAppSelector((state) => state.main.splashScreen);
  // Server changes (enrolments, command results, schedules, payments) refresh every open screen.
  useServerEvents(useAppSelector((state) => state.session.unlocked));
  const { ready } = useTranslation();
  const org = useGetOrgAppConfigQuery();
  const waitedMax = useElapsed(SPLASH_MAX_MS);
  useOrgTheme(org.data);

  // The first screen waits for its words only: the organisation's config (names, colours) fills in when it answers.
  // When the words are already here (main.tsx waits for them briefly), the first render is the screen itself,
  // and index.html's splash goes before that render is painted.
  const loaded = ready || waitedMax;
  useLayoutEffect(() => {
    if (splash && loaded) {
      dispatch(setSplashScreen(false));
      document.getElementById('boot-splash')?.remove();
    }
  }, [dispatch, loaded, splash]);

  if (splash && !loaded) return <SplashScreen />;
  return (
    <div className="app-column">
      {/* In the flow above the screen, not over it: the app bar and its menu button move down while it shows. */}
      <UpdateBanner />
      <Outlet />
      <GlobalSpinner />
      <Toaster />
      <ScrollRestoration />
    </div>
  );
}
