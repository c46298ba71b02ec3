/** The routes: public sign-in and information screens, and the signed-in area behind the session guard. */
import { createBrowserRouter, Navigate, redirect, type LoaderFunctionArgs } from 'react-router';
import { ROUTES, type RouteHandle } from '../shared/routes.ts';
import { readStored, clearSessionStorage } from '../shared/storage.ts';
import { decodeTokenPayload, isTokenExpired } from '../shared/auth/token.ts';
import { sessionLocked } from '../shared/state/session-slice.ts';
import { NotFoundScreen } from '../shared/ui/not-found-screen.tsx';
import { readPendingOtp } from '../features/auth/hooks/otp-request.ts';
// The one screen a first visit paints: in the entry chunk, so it does not wait for a second round trip.
import { LoginScreen } from '../features/auth/components/login-screen.tsx';
import type { AppStore } from './store.ts';
import { RootLayout } from './root-layout.tsx';
import { RouteErrorScreen } from './route-error-screen.tsx';
import { SplashScreen } from './splash-screen.tsx';

const handle = (name: RouteHandle['name'], loading: RouteHandle['loading'] = 'spinner'): RouteHandle => ({ name, loading });

export function createAppRouter(store: AppStore) {
  /** A stored, unexpired token; otherwise the local session is dropped. */
  function hasToken(): boolean {
    const token = readStored('token');
    if (token && !isTokenExpired(decodeTokenPayload(token))) return true;
    if (token) clearSessionStorage();
    store.dispatch(sessionLocked());
    return false;
  }

  /** Signed-in area: a token, and the MPIN entered (or an OTP sign-in) during this page load. */
  function requireSession({ request }: LoaderFunctionArgs) {
    if (!hasToken()) throw redirect(ROUTES.login);
    if (!store.getState().session.unlocked) {
      const url = new URL(request.url);
      throw redirect(`${ROUTES.m_pin}?next=${encodeURIComponent(url.pathname + url.search)}`);
    }
    return null;
  }

  return createBrowserRouter([
    {
      id: 'root',
      path: ROUTES.root,
      Component: RootLayout,
      errorElement: <RouteErrorScreen />,
      hydrateFallbackElement: <SplashScreen />,
      handle: handle('root'),
      children: [
        { index: true, loader: () => redirect(ROUTES.dashboard), element: <Navigate to={ROUTES.dashboard} replace /> },
        {
          path: ROUTES.login,
          handle: handle('login'),
          loader: () => (readStored('token') ? redirect(ROUTES.dashboard) : null),
          Component: LoginScreen,
        },
        {
          path: ROUTES.otp,
          handle: handle('otp'),
          loader: () => (readPendingOtp() ? null : redirect(ROUTES.login)),
          lazy: async () => ({ Component: (await import('../features/auth/components/otp-screen.tsx')).OtpScreen }),
        },
        {
          path: ROUTES.m_pin,
          handle: handle('m_pin'),
          loader: () => {
            if (!hasToken()) return redirect(ROUTES.login);
            return store.getState().session.unlocked ? redirect(ROUTES.dashboard) : null;
          },
          lazy: async () => ({ Component: (await import('../features/auth/components/mpin-screen.tsx')).MpinScreen }),
        },
        {
          path: ROUTES.privacy_policy,
          handle: handle('privacy_policy'),
          lazy: async () => ({
            Component: (await import('../features/info/components/policy-screens.tsx')).PrivacyPolicyScreen,
          }),
        },
        {
          path: ROUTES.refund_policy,
          handle: handle('refund_policy'),
          lazy: async () => ({
            Component: (await import('../features/info/components/policy-screens.tsx')).RefundPolicyScreen,
          }),
        },
        {
          path: ROUTES.pricing,
          handle: handle('pricing'),
          lazy: async () => ({ Component: (await import('../features/info/components/pricing-screen.tsx')).PricingScreen }),
        },
        {
          id: 'authenticated',
          loader: requireSession,
          // Check the session on every navigation inside the area, not only on entry.
          shouldRevalidate: () => true,
          // The shell with the notification bell in its app bar (app/shell-route.tsx composes the features).
          lazy: async () => ({ Component: (await import('./shell-route.tsx')).ShellRoute }),
          children: [
            {
              path: ROUTES.dashboard,
              handle: handle('dashboard', 'skeleton'),
              lazy: async () => ({ Component: (await import('./dashboard-route.tsx')).DashboardRoute }),
            },
            {
              path: ROUTES.customer_list,
              handle: handle('customer_list', 'skeleton'),
              // Loan customers, and the anti-hacking plans and extended warranties sold as its other lists (app/customer-list-route.tsx composes the features).
              lazy: async () => ({ Component: (await import('./customer-list-route.tsx')).CustomerListRoute }),
            },
            {
              path: ROUTES.customer_details,
              handle: handle('customer_details', 'skeleton'),
              // Customer details with the device channel's sections and the plans sold (app/customer-details-route.tsx composes the features).
              lazy: async () => ({ Component: (await import('./customer-details-route.tsx')).CustomerDetailsRoute }),
            },
            {
              path: ROUTES.customer_navigate,
              handle: handle('customer_navigate'),
              lazy: async () => ({
                Component: (await import('../features/customers/components/customer-navigate-screen.tsx')).CustomerNavigateScreen,
              }),
            },
            {
              path: ROUTES.add_customer,
              handle: handle('add_customer'),
              lazy: async () => ({
                Component: (await import('../features/add-customer/components/add-customer-screen.tsx')).AddCustomerScreen,
              }),
            },
            {
              path: ROUTES.view_emi_details,
              handle: handle('view_emi_details'),
              lazy: async () => ({ Component: (await import('../features/emi/components/view-emi-screen.tsx')).ViewEmiScreen }),
            },
            {
              path: ROUTES.emi_details,
              handle: handle('emi_details'),
              lazy: async () => ({ Component: (await import('../features/emi/components/emi-plan-screen.tsx')).EmiPlanScreen }),
            },
            {
              path: ROUTES.emi_statement,
              handle: handle('emi_statement', 'skeleton'),
              lazy: async () => ({ Component: (await import('../features/emi/components/statement-screen.tsx')).StatementScreen }),
            },
            {
              path: ROUTES.up_coming_emi,
              handle: handle('up_coming_emi'),
              lazy: async () => ({
                Component: (await import('../features/emi/components/upcoming-emi-screen.tsx')).UpcomingEmiScreen,
              }),
            },
            {
              path: ROUTES.customer_documents,
              handle: handle('customer_documents'),
              lazy: async () => ({
                Component: (await import('../features/documents/components/customer-documents-screen.tsx')).CustomerDocumentsScreen,
              }),
            },
            {
              path: ROUTES.signature,
              handle: handle('signature'),
              lazy: async () => ({ Component: (await import('../features/documents/components/signature-screen.tsx')).SignatureScreen }),
            },
            {
              path: ROUTES.witness_signature,
              handle: handle('witness_signature'),
              lazy: async () => ({
                Component: (await import('../features/documents/components/signature-screen.tsx')).WitnessSignatureScreen,
              }),
            },
            {
              path: ROUTES.sessions,
              handle: handle('sessions'),
              lazy: async () => ({
                Component: (await import('../features/sessions/components/sessions-screen.tsx')).SessionsScreen,
              }),
            },
            {
              path: ROUTES.language,
              handle: handle('language'),
              lazy: async () => ({
                Component: (await import('../features/settings/components/language-screen.tsx')).LanguageScreen,
              }),
            },
            {
              path: ROUTES.help,
              handle: handle('help'),
              lazy: async () => ({ Component: (await import('../features/info/components/help-screen.tsx')).HelpScreen }),
            },
            {
              path: ROUTES.support,
              handle: handle('support'),
              lazy: async () => ({
                Component: (await import('../features/info/components/support-screen.tsx')).SupportScreen,
              }),
            },
            {
              path: ROUTES.emm_qr,
              handle: handle('emm_qr'),
              lazy: async () => ({ Component: (await import('../features/devices/components/emm-qr-screen.tsx')).EmmQrScreen }),
            },
            {
              path: ROUTES.multiple_lock_unlock,
              handle: handle('multiple_lock_unlock', 'skeleton'),
              lazy: async () => ({
                Component: (await import('../features/devices/components/multiple-lock-unlock-screen.tsx')).MultipleLockUnlockScreen,
              }),
            },
            {
              path: ROUTES.send_advertisement,
              // Its own placeholders: an open offer's progress is read again as each phone answers, without a spinner over it.
              handle: handle('send_advertisement', 'skeleton'),
              lazy: async () => ({
                Component: (await import('../features/ads/components/send-advertisement-screen.tsx')).SendAdvertisementScreen,
              }),
            },
            {
              path: ROUTES.anti_theft,
              handle: handle('anti_theft', 'skeleton'),
              // The anti-theft phones with "Enrol a phone" (app/antitheft-route.tsx composes the features).
              lazy: async () => ({ Component: (await import('./antitheft-route.tsx')).AntitheftRoute }),
            },
            {
              path: ROUTES.familycare,
              handle: handle('familycare', 'skeleton'),
              // The family-care phones with "Enrol a phone" (app/familycare-route.tsx composes the features).
              lazy: async () => ({ Component: (await import('./familycare-route.tsx')).FamilyCareRoute }),
            },
            {
              path: ROUTES.sim_changes,
              handle: handle('sim_changes'),
              lazy: async () => ({ Component: (await import('../features/devices/components/sim-changes-screen.tsx')).SimChangesScreen }),
            },
            {
              path: ROUTES.retailer_list,
              handle: handle('retailer_list'),
              lazy: async () => ({ Component: (await import('../features/network/components/retailer-list-screen.tsx')).RetailerListScreen }),
            },
            {
              path: ROUTES.add_retailer,
              handle: handle('add_retailer'),
              lazy: async () => ({ Component: (await import('../features/network/components/add-retailer-screen.tsx')).AddRetailerScreen }),
            },
            {
              path: ROUTES.retailer_profile,
              handle: handle('retailer_profile'),
              lazy: async () => ({ Component: (await import('./retailer-profile-route.tsx')).RetailerProfileRoute }),
            },
            {
              path: ROUTES.top_up_history,
              handle: handle('top_up_history', 'skeleton'),
              lazy: async () => ({ Component: (await import('../features/network/components/top-up-history-screen.tsx')).TopUpHistoryScreen }),
            },
            {
              path: ROUTES.retailer_payment_qr,
              handle: handle('retailer_payment_qr'),
              lazy: async () => ({ Component: (await import('../features/payments/components/payment-qr-screen.tsx')).PaymentQrScreen }),
            },
            {
              path: ROUTES.payment_gateway,
              handle: handle('payment_gateway'),
              lazy: async () => ({ Component: (await import('../features/payments/components/payment-gateway-screen.tsx')).PaymentGatewayScreen }),
            },
            {
              path: ROUTES.activity,
              handle: handle('activity', 'skeleton'),
              lazy: async () => ({ Component: (await import('../features/audit/components/activity-screen.tsx')).ActivityScreen }),
            },
            {
              path: ROUTES.apple_details,
              handle: handle('apple_details'),
              lazy: async () => ({ Component: (await import('../features/apple/components/apple-details-screen.tsx')).AppleDetailsScreen }),
            },
            {
              path: ROUTES.apple_sync,
              handle: handle('apple_sync'),
              lazy: async () => ({ Component: (await import('../features/apple/components/apple-sync-screen.tsx')).AppleSyncScreen }),
            },
            {
              path: ROUTES.antihacking,
              handle: handle('antihacking'),
              lazy: async () => ({ Component: (await import('../features/antihacking/components/antihacking-screen.tsx')).AntihackingScreen }),
            },
            {
              path: ROUTES.extended_warranty,
              handle: handle('extended_warranty'),
              lazy: async () => ({ Component: (await import('../features/warranty/components/warranty-screen.tsx')).WarrantyScreen }),
            },
            { path: '*', Component: NotFoundScreen },
          ],
        },
      ],
    },
  ]);
}
