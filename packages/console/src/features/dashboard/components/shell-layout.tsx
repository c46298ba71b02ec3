/** The signed-in console: app bar, drawer, the current screen, bottom tabs and the birthday celebration. */
import type { ComponentType } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  useGetAccessConfigQuery,
  useGetAppConfigsQuery,
  useGetOrgAppConfigQuery,
  useGetUserAccessQuery,
} from '../../../shared/config/config-api.ts';
import { brandingOf } from '../../../shared/config/use-org-theme.ts';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { MenuIcon } from '../../../shared/ui/icons.tsx';
import { useAppDispatch, useAppSelector } from '../../../shared/state/hooks.ts';
import { setDrawerOpen } from '../../../shared/state/main-slice.ts';
import { useBirthdayCelebration } from '../hooks/use-birthday-celebration.ts';
import { AppDrawer } from './app-drawer.tsx';
import { BottomTabs } from './bottom-tabs.tsx';
import { BirthdayDialog } from './birthday-dialog.tsx';
import './shell.css';

/** `AppBarEnd`: what sits at the bar's end (the notification bell, composed in by app/shell-route.tsx). */
export function ShellLayout({ AppBarEnd }: { AppBarEnd?: ComponentType }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const drawerOpen = useAppSelector((state) => state.main.drawerOpen);
  const { data: org } = useGetOrgAppConfigQuery();
  const { data: profile } = useGetDetailsQuery();
  // Fill the cache for the feature switches and access gates the screens read through selectors.
  useGetAppConfigsQuery();
  useGetAccessConfigQuery();
  useGetUserAccessQuery();
  useBirthdayCelebration(profile);

  const orgName = org?.company_name || org?.name || t('common.appName');
  const userName = profile ? `${profile.first_name} ${profile.last_name}`.trim() : null;
  const withTabs = brandingOf(org).mainLayout === 'tabs';

  return (
    <div className={`shell${withTabs ? ' shell--tabs' : ''}`}>
      <header className="app-bar">
        <button
          type="button"
          className="icon-button"
          aria-label={t('nav.openMenu')}
          aria-expanded={drawerOpen}
          onClick={() => dispatch(setDrawerOpen(true))}
        >
          <MenuIcon />
        </button>
        <span className="app-bar__title">{orgName}</span>
        {AppBarEnd ? <AppBarEnd /> : null}
      </header>
      <AppDrawer heading={userName ?? orgName} subheading={profile?.shop_name ?? null} />
      <main className="shell__main">
        <Outlet />
      </main>
      {withTabs ? <BottomTabs /> : null}
      <BirthdayDialog firstName={profile?.first_name ?? ''} />
    </div>
  );
}
