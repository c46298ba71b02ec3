/**
 * The specification's route names and their paths. Only the routes whose screens exist are
 * registered in src/app/router.tsx; the others are listed so links and later work use one spelling.
 * The spec fixes two shapes: customer details is /customer-details/{customer_id}, and customer
 * navigate takes ?customer_id=. The other customer screens follow the details shape.
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
  customer_list: '/customers',
  customer_details: '/customer-details/:customer_id',
  customer_navigate: '/customer-navigate',
  add_customer: '/add-customer',
  view_emi_details: '/view-emi-details/:customer_id',
  emi_details: '/emi-details/:customer_id',
  // Not in the specification: the loan's statement and schedule changes, opened from the EMI plan.
  emi_statement: '/emi-statement/:customer_id',
  up_coming_emi: '/upcoming-emi',
  customer_documents: '/customer-documents/:customer_id',
  signature: '/signature/:customer_id',
  witness_signature: '/witness-signature/:customer_id',
  emm_qr: '/emm-qr',
  multiple_lock_unlock: '/multiple-lock-unlock',
  sim_changes: '/sim-changes',
  apple_details: '/apple-details',
  apple_sync: '/apple-sync',
  activity: '/activity',
  retailer_list: '/retailer-list',
  retailer_profile: '/retailer-profile',
  add_retailer: '/add-retailer',
  top_up_history: '/top-up-history',
  retailer_payment_qr: '/retailer-payment-qr',
  payment_gateway: '/payment-gateway',
  antihacking: '/antihacking',
  extended_warranty: '/extended-warranty',
  send_advertisement: '/send-advertisement',
  anti_theft: '/anti-theft',
  familycare: '/familycare',
} as const;

export type RouteName = keyof typeof ROUTES;

/** Routes whose path ends in /:customer_id. */
type CustomerRoute = 'customer_details' | 'view_emi_details' | 'emi_details' | 'emi_statement' | 'customer_documents' | 'signature' | 'witness_signature';

/** The address of a customer's screen, e.g. customerPath('customer_details', 12) -> /customer-details/12. */
export function customerPath(route: CustomerRoute, customerId: number | string): string {
  return ROUTES[route].replace(':customer_id', encodeURIComponent(String(customerId)));
}

/** Customer navigate takes the customer id as a query parameter (specification, section 2). */
export function customerNavigatePath(customerId: number | string): string {
  return `${ROUTES.customer_navigate}?customer_id=${encodeURIComponent(String(customerId))}`;
}

/** The EMM QR screen takes the customer id as a query parameter, like customer navigate. */
export function emmQrPath(customerId: number | string): string {
  return `${ROUTES.emm_qr}?customer_id=${encodeURIComponent(String(customerId))}`;
}

/** Apple details takes the customer id as a query parameter too. */
export function appleDetailsPath(customerId: number | string): string {
  return `${ROUTES.apple_details}?customer_id=${encodeURIComponent(String(customerId))}`;
}

/** The customer list's lists (loan customers, anti-hacking plans sold, extended warranties sold), named by its `tab` query parameter. */
export const CUSTOMER_LIST_TABS = ['loans', 'antihacking', 'warranty'] as const;
export type CustomerListTab = (typeof CUSTOMER_LIST_TABS)[number];

/** The customer list on one of its lists: /customers, or /customers?tab=antihacking. */
export function customerListPath(tab: CustomerListTab = 'loans'): string {
  return tab === 'loans' ? ROUTES.customer_list : `${ROUTES.customer_list}?tab=${tab}`;
}

/** The anti-hacking screen for one tier (app_type) or product, with a plan preselected (spec: app_type, plan_id, product_id). */
export function antihackingPath(query: { appType?: number; productId?: number; planId?: number } = {}): string {
  const params = new URLSearchParams();
  if (query.appType !== undefined) params.set('app_type', String(query.appType));
  if (query.planId !== undefined) params.set('plan_id', String(query.planId));
  if (query.productId !== undefined) params.set('product_id', String(query.productId));
  const search = params.toString();
  return search ? `${ROUTES.antihacking}?${search}` : ROUTES.antihacking;
}

/**
 * The extended warranty screen: the sale form (for a financed customer's phone with customer_id, its fields filled
 * from the customer), or one sale with its certificate and claims (sale_id).
 */
export function warrantyPath(query: { customerId?: number; saleId?: number } = {}): string {
  if (query.saleId !== undefined) return `${ROUTES.extended_warranty}?sale_id=${encodeURIComponent(String(query.saleId))}`;
  if (query.customerId !== undefined) return `${ROUTES.extended_warranty}?customer_id=${encodeURIComponent(String(query.customerId))}`;
  return ROUTES.extended_warranty;
}

/** The offers screen's parts: the new offer form, the offers sent (`tab=sent`), or one offer's results (campaign_id). */
export const ADVERTISEMENT_TABS = ['new', 'sent'] as const;
export type AdvertisementTab = (typeof ADVERTISEMENT_TABS)[number];

export function advertisementPath(query: { tab?: AdvertisementTab; campaignId?: number } = {}): string {
  if (query.campaignId !== undefined) return `${ROUTES.send_advertisement}?campaign_id=${encodeURIComponent(String(query.campaignId))}`;
  return query.tab === 'sent' ? `${ROUTES.send_advertisement}?tab=sent` : ROUTES.send_advertisement;
}

/** A customer's EMI screen with one payment's receipt open, named by its receipt number (a gateway order or a confirmed claim knows only that). */
export function receiptPath(customerId: number, receiptNo: string): string {
  return `${customerPath('view_emi_details', customerId)}?receipt_no=${encodeURIComponent(receiptNo)}`;
}

/** A record id from a route or query parameter: a positive integer, else null. */
export function parseId(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

export const parseCustomerId = parseId;

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
