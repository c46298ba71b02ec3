/** Everything around the screens: splash, theme, spinner, toasts and the update prompt. */
import { useEffect, useState } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useGetOrgAppConfigQuery } from '../shared/config/config-api.ts';
import { useOrgTheme } from '../shared/config/use-org-theme.ts';
import { useAppDispatch, useAppSelector } from '../shared/state/hooks.ts';
import { setSplashScreen } from '../shared/state/main-slice.ts';
import { Toaster } from '../shared/ui/toaster.tsx';
import { UpdateBanner } from '../shared/pwa/update-banner.tsx';
import { GlobalSpinner } from './global-spinner.tsx';
import { SplashScreen } from './splash-screen.tsx';

/** On a weak network the config may take long; after this the app opens with the default look. */
const CONFIG_WAIT_MS = 3000;
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
  const { ready } = useTranslation();
  const org = useGetOrgAppConfigQuery();
  const waitedForConfig = useElapsed(CONFIG_WAIT_MS);
  const waitedMax = useElapsed(SPLASH_MAX_MS);
  useOrgTheme(org.data);

  const configSettled = org.isSuccess || org.isError || waitedForConfig;
  const loaded = (ready && configSettled) || waitedMax;
  useEffect(() => {
    if (splash && loaded) {
      dispatch(setSplashScreen(false));
      document.getElementById('boot-splash')?.remove();
    }
  }, [dispatch, loaded, splash]);

  if (splash) return <SplashScreen />;
  return (
    <div className="app-column">
      <Outlet />
      <GlobalSpinner />
      <UpdateBanner />
      <Toaster />
      <ScrollRestoration />
    </div>
  );
}
