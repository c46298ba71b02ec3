/** The navigation drawer of the signed-in console. */
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import {
  AddUserIcon,
  CalendarIcon,
  DevicesIcon,
  DocumentIcon,
  HelpIcon,
  HomeIcon,
  LanguageIcon,
  LogoutIcon,
  SupportIcon,
  TagIcon,
  UsersIcon,
} from '../../../shared/ui/icons.tsx';
import { useAppDispatch, useAppSelector } from '../../../shared/state/hooks.ts';
import { setDrawerOpen } from '../../../shared/state/main-slice.ts';
import { useSignOut } from '../../../shared/auth/use-sign-out.ts';
import { ROUTES } from '../../../shared/routes.ts';

const ITEMS: { to: string; label: string; icon: ReactNode }[] = [
  { to: ROUTES.dashboard, label: 'nav.dashboard', icon: <HomeIcon /> },
  { to: ROUTES.customer_list, label: 'nav.customers', icon: <UsersIcon /> },
  { to: ROUTES.add_customer, label: 'nav.addCustomer', icon: <AddUserIcon /> },
  { to: ROUTES.up_coming_emi, label: 'nav.upcomingEmi', icon: <CalendarIcon /> },
  { to: ROUTES.sessions, label: 'nav.sessions', icon: <DevicesIcon /> },
  { to: ROUTES.language, label: 'nav.language', icon: <LanguageIcon /> },
  { to: ROUTES.help, label: 'nav.help', icon: <HelpIcon /> },
  { to: ROUTES.support, label: 'nav.support', icon: <SupportIcon /> },
  { to: ROUTES.privacy_policy, label: 'nav.privacyPolicy', icon: <DocumentIcon /> },
  { to: ROUTES.refund_policy, label: 'nav.refundPolicy', icon: <DocumentIcon /> },
  { to: ROUTES.pricing, label: 'nav.pricing', icon: <TagIcon /> },
];

export function AppDrawer({ heading, subheading }: { heading: string; subheading?: string | null }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const open = useAppSelector((state) => state.main.drawerOpen);
  const signOut = useSignOut();
  const close = () => dispatch(setDrawerOpen(false));
  return (
    <Dialog open={open} title={t('nav.menu')} onClose={close} variant="drawer" hideTitle>
      <div className="drawer__header">
        <p className="drawer__name">{heading}</p>
        {subheading ? <p className="drawer__sub">{subheading}</p> : null}
      </div>
      <nav aria-label={t('nav.menu')}>
        <ul className="nav-list">
          {ITEMS.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className="nav-list__item" onClick={close}>
                {item.icon}
                <span>{t(item.label)}</span>
              </NavLink>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="nav-list__item"
              onClick={() => {
                close();
                void signOut();
              }}
            >
              <LogoutIcon />
              <span>{t('nav.logout')}</span>
            </button>
          </li>
        </ul>
      </nav>
    </Dialog>
  );
}
