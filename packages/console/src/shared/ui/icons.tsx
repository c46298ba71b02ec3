/** Small inline icons (decorative: the buttons around them carry the names). */
import type { ReactNode } from 'react';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export const MenuIcon = () => <Icon><path {...stroke} d="M4 6h16M4 12h16M4 18h16" /></Icon>;
export const BackIcon = () => <Icon><path {...stroke} d="M15 5l-7 7 7 7" /></Icon>;
export const BellIcon = () => <Icon><path {...stroke} d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15zM10 20.5a2 2 0 0 0 4 0" /></Icon>;
export const CloseIcon = () => <Icon><path {...stroke} d="M6 6l12 12M18 6L6 18" /></Icon>;
export const HomeIcon = () => <Icon><path {...stroke} d="M4 11l8-7 8 7v9h-5v-6H9v6H4z" /></Icon>;
export const HelpIcon = () => (
  <Icon>
    <circle {...stroke} cx="12" cy="12" r="9" />
    <path {...stroke} d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17.5v.01" />
  </Icon>
);
export const SupportIcon = () => (
  <Icon>
    <path {...stroke} d="M4 13v-1a8 8 0 0 1 16 0v1M4 13h3v5H5a1 1 0 0 1-1-1zM20 13h-3v5h2a1 1 0 0 0 1-1zM17 18a4 4 0 0 1-4 3h-1" />
  </Icon>
);
export const DevicesIcon = () => (
  <Icon>
    <rect {...stroke} x="7" y="3" width="10" height="18" rx="2" />
    <path {...stroke} d="M11 18h2" />
  </Icon>
);
export const LanguageIcon = () => (
  <Icon>
    <circle {...stroke} cx="12" cy="12" r="9" />
    <path {...stroke} d="M3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z" />
  </Icon>
);
export const DocumentIcon = () => <Icon><path {...stroke} d="M6 3h8l4 4v14H6zM14 3v4h4M9 12h6M9 16h6" /></Icon>;
export const TagIcon = () => <Icon><path {...stroke} d="M3 12V4h8l10 10-8 8zM7.5 7.5v.01" /></Icon>;
export const LogoutIcon = () => <Icon><path {...stroke} d="M10 4H5v16h5M14 8l4 4-4 4M18 12H9" /></Icon>;
export const UsersIcon = () => (
  <Icon>
    <circle {...stroke} cx="9" cy="8" r="3.5" />
    <path {...stroke} d="M2.5 20c.5-3.5 3.2-5.5 6.5-5.5s6 2 6.5 5.5M16 4.8a3.5 3.5 0 0 1 0 6.4M18 14.8c2 .7 3.2 2.5 3.5 5.2" />
  </Icon>
);
export const AddUserIcon = () => (
  <Icon>
    <circle {...stroke} cx="10" cy="8" r="3.5" />
    <path {...stroke} d="M3.5 20c.5-3.5 3.2-5.5 6.5-5.5 1.4 0 2.7.4 3.7 1M19 14v6M16 17h6" />
  </Icon>
);
export const CalendarIcon = () => (
  <Icon>
    <rect {...stroke} x="4" y="5" width="16" height="15" rx="2" />
    <path {...stroke} d="M4 10h16M9 3v4M15 3v4" />
  </Icon>
);
export const LockIcon = () => (
  <Icon>
    <rect {...stroke} x="5" y="11" width="14" height="10" rx="2" />
    <path {...stroke} d="M8 11V7a4 4 0 0 1 8 0v4M12 15v2" />
  </Icon>
);
export const ShieldIcon = () => (
  <Icon>
    <path {...stroke} d="M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6z" />
    <path {...stroke} d="M9 12l2 2 4-4" />
  </Icon>
);
export const ActivityIcon = () => <Icon><path {...stroke} d="M3 12h4l3-7 4 14 3-7h4" /></Icon>;
export const SimIcon = () => (
  <Icon>
    <path {...stroke} d="M6 3h8l4 4v14H6z" />
    <rect {...stroke} x="9" y="11" width="6" height="6" rx="1" />
  </Icon>
);
export const QrIcon = () => (
  <Icon>
    <rect {...stroke} x="4" y="4" width="6" height="6" rx="1" />
    <rect {...stroke} x="14" y="4" width="6" height="6" rx="1" />
    <rect {...stroke} x="4" y="14" width="6" height="6" rx="1" />
    <path {...stroke} d="M14 14h2v2M20 14v.01M14 20h2M18 18h2v2" />
  </Icon>
);
export const WalletIcon = () => (
  <Icon>
    <rect {...stroke} x="3" y="6" width="18" height="14" rx="2" />
    <path {...stroke} d="M3 10h18M16 15h2M6 6l9-3 1 3" />
  </Icon>
);
/** A phone with a check mark: a plan that looks after the phone (extended warranty). */
export const WarrantyIcon = () => (
  <Icon>
    <rect {...stroke} x="5" y="2.5" width="11" height="19" rx="2" />
    <path {...stroke} d="M9 18.5h3M14 12.5l2.5 2.5 4.5-5" />
  </Icon>
);
/** A loudspeaker: offers sent to customers' phones. */
export const MegaphoneIcon = () => (
  <Icon>
    <path {...stroke} d="M3 10v4a1 1 0 0 0 1 1h2l7 4V5L6 9H4a1 1 0 0 0-1 1zM7 15l1.5 5h2.5l-1-4.5M17 9a4 4 0 0 1 0 6M20 6a8 8 0 0 1 0 12" />
  </Icon>
);
