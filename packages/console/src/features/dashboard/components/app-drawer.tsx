/** The navigation drawer of the signed-in console. */
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { useAppDispatch, useAppSelector } from '../../../shared/state/hooks.ts';
import { setDrawerOpen } from '../../../shared/state/main-slice.ts';
import { useSignOut } from '../../../shared/auth/use-sign-out.ts';
import { LogoutIcon } from '../../../shared/ui/icons.tsx';
import { NAV_ITEMS } from './nav-items.tsx';
import './shell.css';


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
          {NAV_ITEMS.map((item) => (
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
