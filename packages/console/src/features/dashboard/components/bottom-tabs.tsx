/** Bottom tabs, for organisations whose main layout is 'tabs'. */
import { useRef, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HelpIcon, HomeIcon, SupportIcon, UsersIcon } from '../../../shared/ui/icons.tsx';
import { useAppDispatch } from '../../../shared/state/hooks.ts';
import { setMainScreenTab, type MainScreenTab } from '../../../shared/state/main-slice.ts';
import { ROUTES } from '../../../shared/routes.ts';
import { useReservedSpace } from '../../../shared/ui/reserved-space.ts';
import './shell.css';

const TABS: { tab: MainScreenTab; to: string; label: string; icon: ReactNode }[] = [
  { tab: 'dashboard', to: ROUTES.dashboard, label: 'nav.dashboard', icon: <HomeIcon /> },
  { tab: 'customers', to: ROUTES.customer_list, label: 'nav.customers', icon: <UsersIcon /> },
  { tab: 'help', to: ROUTES.help, label: 'nav.help', icon: <HelpIcon /> },
  { tab: 'support', to: ROUTES.support, label: 'nav.support', icon: <SupportIcon /> },
];

export function BottomTabs() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const bar = useRef<HTMLElement>(null);
  // The page, sticky bars and toasts keep this much room at the bottom (a label on two lines makes it taller).
  useReservedSpace(bar, '--tabs-space');
  return (
    <nav className="bottom-tabs" aria-label={t('nav.tabs')} ref={bar}>
      {TABS.map((item) => (
        <NavLink key={item.tab} to={item.to} className="bottom-tabs__item" title={t(item.label)} onClick={() => dispatch(setMainScreenTab(item.tab))}>
          {item.icon}
          <span className="bottom-tabs__label">{t(item.label)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
