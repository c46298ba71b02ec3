/** The signed-in area's destinations: all of them in the drawer, the ones marked quick on the dashboard. */
import type { ReactNode } from 'react';
import {
  ActivityIcon,
  AddUserIcon,
  CalendarIcon,
  DevicesIcon,
  DocumentIcon,
  HelpIcon,
  HomeIcon,
  LanguageIcon,
  LockIcon,
  QrIcon,
  ShieldIcon,
  SimIcon,
  SupportIcon,
  TagIcon,
  UsersIcon,
  WalletIcon,
} from '../../../shared/ui/icons.tsx';
import { ROUTES } from '../../../shared/routes.ts';

export const NAV_ITEMS: { to: string; label: string; icon: ReactNode; quick?: boolean }[] = [
  { to: ROUTES.dashboard, label: 'nav.dashboard', icon: <HomeIcon /> },
  { to: ROUTES.customer_list, label: 'nav.customers', icon: <UsersIcon />, quick: true },
  { to: ROUTES.add_customer, label: 'nav.addCustomer', icon: <AddUserIcon />, quick: true },
  { to: ROUTES.antihacking, label: 'antihacking.nav', icon: <ShieldIcon />, quick: true },
  { to: ROUTES.up_coming_emi, label: 'nav.upcomingEmi', icon: <CalendarIcon />, quick: true },
  { to: ROUTES.multiple_lock_unlock, label: 'bulkLock.title', icon: <LockIcon />, quick: true },
  { to: ROUTES.retailer_list, label: 'nav.network', icon: <UsersIcon /> },
  { to: ROUTES.retailer_profile, label: 'nav.myProfile', icon: <AddUserIcon /> },
  { to: ROUTES.top_up_history, label: 'nav.keyHistory', icon: <TagIcon /> },
  { to: ROUTES.retailer_payment_qr, label: 'nav.paymentQr', icon: <QrIcon /> },
  { to: ROUTES.payment_gateway, label: 'nav.paymentGateway', icon: <WalletIcon /> },
  { to: ROUTES.sim_changes, label: 'simChanges.title', icon: <SimIcon /> },
  { to: ROUTES.activity, label: 'audit.title', icon: <ActivityIcon /> },
  { to: ROUTES.sessions, label: 'nav.sessions', icon: <DevicesIcon />, quick: true },
  { to: ROUTES.language, label: 'nav.language', icon: <LanguageIcon />, quick: true },
  { to: ROUTES.help, label: 'nav.help', icon: <HelpIcon />, quick: true },
  { to: ROUTES.support, label: 'nav.support', icon: <SupportIcon />, quick: true },
  { to: ROUTES.privacy_policy, label: 'nav.privacyPolicy', icon: <DocumentIcon /> },
  { to: ROUTES.refund_policy, label: 'nav.refundPolicy', icon: <DocumentIcon /> },
  { to: ROUTES.pricing, label: 'nav.pricing', icon: <TagIcon />, quick: true },
];
