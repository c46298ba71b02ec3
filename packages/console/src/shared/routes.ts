/**
 * The specification's route names and their paths. Only the routes whose screens exist are
 * registered in src/app/router.tsx; the others are listed so links and later work use one spelling.
 */
export const ROUTES = {
  root: '/',
  login: '/login',
  otp: '/otp',
  m_pin: '/m-pin',
  privacy_policy: '/privacy-policy',
  refund_policy: '/refund-policy',
  pricing: '/pricing',
  dashboard: '/dashboard',
  language: '/language',
  sessions: '/sessions',
  help: '/help',
  support: '/support',
  // Not registered yet (their screens come with later issues).
  customer_details: '/customer-details/:customer_id',
  customer_list: '/customer-list',
  retailer_list: '/retailer-list',
  retailer_profile: '/retailer-profile',
  send_advertisement: '/send-advertisement',
  up_coming_emi: '/upcoming-emi',
  sim_changes: '/sim-changes',
  retailer_payment_qr: '/retailer-payment-qr',
  signature: '/signature',
  add_customer: '/add-customer',
  anti_theft: '/anti-theft',
  add_retailer: '/add-retailer',
  emi_details: '/emi-details',
  top_up_history: '/top-up-history',
  multiple_lock_unlock: '/multiple-lock-unlock',
  emm_qr: '/emm-qr',
  view_emi_details: '/view-emi-details',
  apple_details: '/apple-details',
  witness_signature: '/witness-signature',
  customer_documents: '/customer-documents',
  customer_navigate: '/customer-navigate',
  extended_warranty: '/extended-warranty',
  payment_gateway: '/payment-gateway',
  familycare: '/familycare',
  antihacking: '/antihacking',
  apple_sync: '/apple-sync',
} as const;

export type RouteName = keyof typeof ROUTES;

/** Route `handle` data read by the app shell. */
export interface RouteHandle {
  name: RouteName;
  /** 'skeleton' screens draw their own placeholders instead of the global spinner. */
  loading?: 'spinner' | 'skeleton';
}

/** A same-origin path to return to after the MPIN, or null (guards against open redirects). */
export function safeNextPath(next: string | null): string | null {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null;
}
