/**
 * The console's screens as the layout test and the screenshot script see them: the registered routes (read
 * from the router, so new screens join on their own), example addresses for parameterised routes, a customer
 * set with long real-world data, and moving between screens inside the app.
 */
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import QRCode from 'qrcode';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { DeviceAgent } from '@kisht/agent/agent';
import { basicAuth } from '@kisht/agent/device-api';
import { MemoryStore } from '@kisht/agent/store';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { ROUTES, type RouteName } from '../../console/src/shared/routes.ts';
import { startFakeRazorpay } from '../../server/test/support/fake-razorpay.ts';
import { en } from './fixtures.ts';

export const LANGUAGES = ['en', 'hn', 'mr', 'gj', 'sp', 'bd', 'kn', 'tg', 'tm', 'pp'] as const;
export type Lng = (typeof LANGUAGES)[number];
/** Farhan Qureshi: a demo retailer no other journey signs in as (the sign-in journey needs Arjun without an MPIN). */
export const RETAILER = '9876543213';
export const MPIN = '2580';

/** Sixty characters each: one long unbroken word and spaces, in Latin and in Tamil script. */
export const LATIN_NAME = { first: 'Venkatasubramaniyanchakravarthy', last: 'Ramachandran Ayyangar-Pillai' };
export const TAMIL_NAME = { first: 'வெங்கடசுப்பிரமணியன்சக்ரவர்த்தி', last: 'இராமச்சந்திரன் பாலசுப்ரமணியம்' };

export interface Data {
  latin: number;
  tamil: number;
  /** A mini-retailer below the retailer with a 60-character name, a long shop name and a key. */
  member: number;
  /** The first anti-hacking plan of the basic tier (app type 8) and its product, for the anti-hacking screen's address. */
  antihackingPlan: { id: number; productId: number };
  /** Extended warranties sold to the long-named customers (see addLongWarrantySales), once they are. */
  warranty?: LongWarrantySales;
  /** A child's phone on family care alone with rules and a week's usage (see addLongFamilyCare), once it is. */
  familycare?: number;
  /** An offer with a long Tamil title and message, shown and opened on one phone and skipped on another (see addLongCampaign). */
  campaign?: number;
}

/** A warranty in cover (a service contract, Latin buyer) and a cancelled one (insurance, Tamil buyer, a long reason). */
export interface LongWarrantySales {
  inCover: number;
  revoked: number;
  /** The insurance plan, whose rules read longest under the dropdown. */
  insurancePlan: number;
}

/**
 * Addresses for the routes that need a parameter (path parameters must be listed; a few screens read a query
 * parameter and are listed too). Several addresses: the screen is checked with each.
 */
export const EXAMPLES: Partial<Record<RouteName, (d: Data) => string[]>> = {
  customer_details: (d) => [`/customer-details/${d.latin}`, `/customer-details/${d.tamil}`, ...(d.familycare ? [`/customer-details/${d.familycare}`] : [])],
  view_emi_details: (d) => [`/view-emi-details/${d.latin}`],
  emi_details: (d) => [`/emi-details/${d.tamil}`],
  emi_statement: (d) => [`/emi-statement/${d.tamil}`],
  customer_documents: (d) => [`/customer-documents/${d.tamil}`],
  signature: (d) => [`/signature/${d.latin}`],
  witness_signature: (d) => [`/witness-signature/${d.tamil}`],
  // The Latin customer's phone never enrolled: its screen offers Cancel enrolment.
  customer_navigate: (d) => [`/customer-navigate?customer_id=${d.tamil}`, `/customer-navigate?customer_id=${d.latin}`],
  emm_qr: (d) => [`/emm-qr?customer_id=${d.latin}`],
  sim_changes: (d) => ['/sim-changes', `/sim-changes?customer_id=${d.tamil}`],
  // The Tamil customer's phone (lost after its SIM changes), and a filter that matches nothing (its empty state).
  // The enrolment form of a phone sold anti-theft alone (no loan) too.
  anti_theft: () => ['/anti-theft', '/anti-theft?state=lost', '/anti-theft?state=ended', '/anti-theft?enrol=1'],
  apple_details: (d) => [`/apple-details?customer_id=${d.tamil}`],
  retailer_profile: (d) => ['/retailer-profile', `/retailer-profile?user_id=${d.member}`],
  // The loans list, and the anti-hacking plans sold (long Latin and Tamil buyers, one cancelled: see addLongAntihackingSales).
  customer_list: () => ['/customers', '/customers?tab=antihacking', '/customers?tab=warranty'],
  // Any plan, and one tier with its plan preselected (the plan's terms show under the dropdown).
  antihacking: (d) => ['/antihacking', `/antihacking?app_type=8&plan_id=${d.antihackingPlan.id}&product_id=${d.antihackingPlan.productId}`],
  // The sale form (empty, and filled in from the Tamil customer), and a sale in cover and a cancelled one with their certificates.
  extended_warranty: (d) => [
    '/extended-warranty',
    `/extended-warranty?customer_id=${d.tamil}`,
    ...(d.warranty ? [`/extended-warranty?sale_id=${d.warranty.inCover}`, `/extended-warranty?sale_id=${d.warranty.revoked}`] : []),
  ],
  top_up_history: (d) => ['/top-up-history', `/top-up-history?user_id=${d.member}`],
  // The family-care phones (the long-named child's, see addLongFamilyCare) and the enrolment form.
  familycare: () => ['/familycare', '/familycare?enrol=1'],
  // The new offer form, the offers sent, and one offer's results (a long Tamil offer, see addLongCampaign).
  send_advertisement: (d) => ['/send-advertisement', '/send-advertisement?tab=sent', ...(d.campaign ? [`/send-advertisement?campaign_id=${d.campaign}`] : [])],
};

/** Screens reached through sign-in rather than by address: checked on the way in. */
export const SIGN_IN_ROUTES: RouteName[] = ['login', 'otp', 'm_pin'];

/** The registered routes, read from the router's source: `path: ROUTES.name` entries, plus the catch-all. */
export function registeredRoutes(): RouteName[] {
  const source = readFileSync(new URL('../../console/src/app/router.tsx', import.meta.url), 'utf8');
  const names = [...source.matchAll(/path:\s*ROUTES\.(\w+)/g)].map((m) => m[1] as RouteName);
  // 'root' is the layout around everything (its index redirects to the dashboard).
  return [...new Set(names)].filter((name) => name !== 'root');
}

export function addressesOf(name: RouteName, data: Data): string[] {
  const example = EXAMPLES[name];
  if (example) return example(data);
  if (ROUTES[name].includes(':')) throw new Error(`route ${name} (${ROUTES[name]}) has no example in layout.spec.ts EXAMPLES`);
  return [ROUTES[name]];
}

/** Waits until the screen has loaded: the address, no request in flight, no skeleton or spinner. */
export async function settle(page: Page, inflight: () => number): Promise<boolean> {
  const deadline = Date.now() + 15_000;
  let quietSince = 0;
  while (Date.now() < deadline) {
    const busy = inflight() > 0 || (await page.locator('.skeleton, .spinner').count()) > 0;
    if (busy) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince > 200) {
      await page.evaluate(async () => {
        await document.fonts.ready;
        // Opening animations (the menu drawer sliding in) end before measuring; endless ones (spinners) are left.
        await Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined)));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      });
      return true;
    }
    await page.waitForTimeout(40);
  }
  return false;
}

/** Counts the page's requests in flight (a long-lived event stream is not a load). */
export function trackRequests(page: Page): () => number {
  const open = new Set<unknown>();
  const longLived = (url: string, type: string) => type === 'eventsource' || type === 'websocket' || /\/(events|stream|mqtt)\b/.test(url);
  page.on('request', (r) => {
    if (!longLived(r.url(), r.resourceType())) open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
  return () => open.size;
}

/** Moves inside the app (no reload, so the MPIN is not asked again). */
export async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    const idx = ((history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  }, path);
  await page.waitForFunction((to) => location.pathname + location.search === to, path);
}
/** A customer with a 60-character name, a price in the tens of lakhs and 60 instalments (the EMI locker, or with anti-theft). */
export async function addLongCustomer(api: RetailerApi, name: { first: string; last: string }, mobile: string, imei: string, options: { productType?: number; altMobile?: string; loanProduct?: string } = {}): Promise<number> {
  if (`${name.first} ${name.last}`.length !== 60) throw new Error('the long names are 60 characters');
  const products = await api.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
  // A loan product (its name's start): the EMI plan then shows the product and its Key Fact Statement figures.
  const loanProduct = options.loanProduct
    ? (await api.request<Array<{ id: number; name: string }>>('GET', '/api/loan_products')).find((p) => p.name.startsWith(options.loanProduct!))
    : undefined;
  if (options.loanProduct && !loanProduct) throw new Error(`no loan product named ${options.loanProduct}`);
  const today = todayInIndia();
  const { customer } = await api.request<{ customer: { id: number } }>('POST', '/api/customer', {
    first_name: name.first, last_name: name.last, mobile, ...(options.altMobile ? { alt_mobile: options.altMobile } : {}),
    device_brand: 'Samsung', device_model: 'Galaxy S25 Ultra Enterprise Edition 512GB Titanium',
    imei1: imei, provisioning_type: 0, product_id: products.find((p) => p.product_type === (options.productType ?? 0))!.id,
    price_paise: 987_654_321, down_payment_paise: 12_345_678, annual_rate_bps: 1850, interest_method: 'flat', tenure_months: 60,
    start_date: addDays(today, -200), first_due_date: addDays(today, -170),
    ...(loanProduct ? { loan_product_id: loanProduct.id, annual_rate: '18.5' } : {}),
  });
  return customer.id;
}

/** A mini-retailer with the Tamil 60-character name and a long shop name, holding one key sent by the retailer. */
export async function addLongMember(api: RetailerApi): Promise<number> {
  const member = await api.request<{ id: number }>('POST', '/api/country/addUsers', {
    user_type: 'miniretailer', first_name: TAMIL_NAME.first, last_name: TAMIL_NAME.last, mobile: '+919811122255',
    shop_name: 'Sri Venkateswara Mobiles and Electronics, Tiruchirappalli Main Road', city: 'Tiruchirappalli',
  });
  await api.request('POST', '/api/keys/transfer', { id: randomUUID(), kind: 'send', to_user_id: member.id, product_type: 0, quantity: 1, note: 'Opening stock for the Srirangam counter' });
  return member.id;
}

/** The owner's message on the lost-mode screen, near its longest (160 characters), in Tamil. */
const LOST_MESSAGE = 'இந்த கைபேசி தொலைந்துவிட்டது. கண்டெடுத்தவர்கள் தயவுசெய்து கீழே உள்ள எண்ணை அழைக்கவும். உரிமையாளர் திருச்சிராப்பள்ளி ஸ்ரீரங்கம் பகுதியில் வசிக்கிறார். நன்றி.';

/**
 * Two customers with 60-character names (Latin with a 31-letter word, and Tamil, on the no-cost loan product), prices
 * in the tens of lakhs, 60 instalments with the first ones overdue; the Tamil customer's phone, sold with anti-theft, enrols with two
 * SIMs and has its cards changed four times (each change alerting the owner and turning lost mode on).
 */
export async function createLongData(server: string, appSecret: string): Promise<Data> {
  const api = new RetailerApi(server);
  await api.signIn(`+91${RETAILER}`);
  // The demo seed gives this retailer no anti-theft keys: one for the Tamil customer.
  await runOperator(server, appSecret, ['keys', `+91${RETAILER}`, String(PRODUCT_TYPE.DPC_ANTITHEFT), '1']);
  const tamilImei = randomImei();
  const plans = await api.request<Array<{ id: number; app_type: number; product_id: number }>>('GET', '/api/customer/get_plans_antihacking');
  const basic = plans.find((p) => p.app_type === 8);
  if (!basic) throw new Error('the organisation has no anti-hacking plan of app type 8');
  const data = {
    latin: await addLongCustomer(api, LATIN_NAME, '+919811122233', randomImei()),
    tamil: await addLongCustomer(api, TAMIL_NAME, '+919811122244', tamilImei, { productType: PRODUCT_TYPE.DPC_ANTITHEFT, altMobile: '+919811122266', loanProduct: 'No-cost' }),
    member: await addLongMember(api),
    antihackingPlan: { id: basic.id, productId: basic.product_id },
  };
  // Anti-theft: a SIM change turns lost mode on with the longest message the owner may leave, so each change
  // below lists its SMS alert and lost mode.
  await api.request('POST', '/api/customer/antitheft', { customer_id: data.tamil, lost_mode_on_sim_change: true, message: LOST_MESSAGE, contact_mobile: '+919811122266' });
  const { qr_payload } = await api.request<{ qr_payload: string }>('GET', `/api/customer/generate_emm_code?customer_id=${data.tamil}`);
  const store = new MemoryStore();
  const agent = new DeviceAgent({ store });
  await agent.enrol(parseEnrolmentPayload(qr_payload), { imei1: tamilImei }, [
    { slot: 0, operator: 'BSNL Tamil Nadu Circle Postpaid 4G Plus', iccid: '89914500001234567890' },
    { slot: 1, operator: 'Vodafone Idea', iccid: '89912000009876543210' },
  ]);
  agent.start();
  for (let i = 0; i < 4; i++) agent.swapSim(i % 2, i % 2 ? 'Reliance Jio Infocomm Limited 5G SA' : 'Airtel', `8991860000${String(1_000_000_000 + i)}`);
  const sent = await agent.outboxEmpty(20_000);
  await agent.stop();
  if (!sent) throw new Error('the phone could not report its SIM changes');
  await addLongLedger(api, data.tamil);
  // The Tamil customer's "I paid" with a large amount and the longest UTR a UPI app shows, open on the payments screen.
  const credentials = store.load()?.credentials;
  if (credentials) {
    await fetch(`${server.replace(/\/+$/, '')}/api/device/payment_claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(credentials.username, credentials.password) },
      body: JSON.stringify({ amount_paise: 987_654_321, reference: 'UTR4455667788990011223344556677889' }),
    });
  }
  return data;
}

/** Reasons near the longest the ledger keeps (200 characters), in Tamil. */
const PENALTY_REASON = 'வாடிக்கையாளர் மூன்று வாரங்கள் தாமதமாகக் கட்டினார்; பலமுறை தொலைபேசியில் அழைத்தும் பதில் இல்லை, கடைக்கு நேரில் வந்து பணம் செலுத்துவதாகச் சொல்லியும் வரவில்லை.';
const WAIVER_REASON = 'வாடிக்கையாளர் மருத்துவமனையில் சிகிச்சை பெற்றதால் தாமதம் ஏற்பட்டது; மருத்துவச் சான்றிதழ் கடையில் சமர்ப்பிக்கப்பட்டது, எனவே அபராதத்தின் ஒரு பகுதி தள்ளுபடி.';
const EDIT_REASON = 'சம்பள தேதி மாறியதால் வாடிக்கையாளர் கேட்டுக்கொண்டபடி தவணைத் தேதி மாற்றப்பட்டது; கடை உரிமையாளர் ஒப்புதல் அளித்தார்.';

/**
 * A loan history for the statement: a part payment of the first instalment (its split has GST: the no-cost product),
 * a large penalty on it and part of that waived, and the third instalment moved and made larger, each with a long
 * Tamil reason. The first instalment keeps an unpaid penalty, so the EMI plan offers to waive it.
 */
async function addLongLedger(api: RetailerApi, customerId: number): Promise<void> {
  const { instalments } = await api.request<{ instalments: Array<{ id: number; number: number; due_date: string; amount_paise: number }> }>('GET', `/api/emi/customer_emi_details?customer_id=${customerId}`);
  const [first, , third] = [...instalments].sort((a, b) => a.number - b.number);
  if (!first || !third) throw new Error('the Tamil customer has fewer than three instalments');
  await api.request('POST', '/api/emi/update_emi_status', { customer_id: customerId, instalment_id: first.id, amount_paise: 1_234_567, method: 'upi', reference: 'UTR4455667788990011' });
  await api.request('POST', '/api/emi/send_penalty', { customer_id: customerId, instalment_id: first.id, amount_paise: 9_876_543, reason: PENALTY_REASON });
  await api.request('POST', '/api/emi/waive_penalty', { customer_id: customerId, instalment_id: first.id, amount_paise: 1_234_567, reason: WAIVER_REASON });
  await api.request('POST', '/api/emi/update_emi_details', { customer_id: customerId, instalment_id: third.id, due_date: addDays(third.due_date, 12), amount_paise: third.amount_paise + 12_345_678, reason: EDIT_REASON });
}

/**
 * Anti-hacking plans sold by the retailer to buyers with the 60-character names: the Tamil one cancelled with a
 * long reason (its code N/A), the Latin one newest and issued. The demo seed gives the retailer no anti-hacking
 * keys, so the operator tops up `keys` of type 8 first (enough for the sales the layout test makes in each language).
 */
export async function addLongAntihackingSales(server: string, appSecret: string, data: Data, keys = 20): Promise<void> {
  await runOperator(server, appSecret, ['keys', `+91${RETAILER}`, '8', String(keys)]);
  const api = new RetailerApi(server, 'anti-hacking sales');
  await api.signIn(`+91${RETAILER}`);
  try {
    const plans = await api.request<Array<{ id: number; name: string; app_type: number }>>('GET', '/api/customer/get_plans_antihacking');
    const plan = plans.find((p) => p.id === data.antihackingPlan.id)!;
    const sell = (name: { first: string; last: string }, mobile: string) =>
      api.request<Array<{ id: number }>>('POST', '/api/customer/add_customer_antihacking', {
        firstName: name.first, lastName: name.last, email: 'venkatasubramaniyan.chakravarthy@example.co.in', mobile, plan_id: plan.id, app_type: plan.app_type, plan_name: plan.name,
      });
    const [tamil] = await sell(TAMIL_NAME, '+919811122277');
    await api.request('POST', '/api/customer/antihacking/revoke', { sale_id: tamil!.id, reason: 'வாடிக்கையாளர் தொலைபேசியைத் திருப்பிக் கொடுத்தார்; பணம் திருப்பித் தரப்பட்டது' });
    await sell(LATIN_NAME, '+919811122288');
  } finally {
    await api.signOut().catch(() => undefined);
  }
}

/**
 * Extended warranties sold by the retailer for the long-named customers' phones: the Latin customer's a service
 * contract in cover on a phone of ₹9,87,654.32, the Tamil customer's an insurance plan in its waiting period, and a
 * second Tamil one cancelled with a long reason. The demo seed gives the retailer no extended warranty keys: the
 * operator tops up `keys` of type 5 first.
 */
export async function addLongWarrantySales(server: string, appSecret: string, data: Data, keys = 10): Promise<LongWarrantySales> {
  await runOperator(server, appSecret, ['keys', `+91${RETAILER}`, '5', String(keys)]);
  const api = new RetailerApi(server, 'warranty sales');
  await api.signIn(`+91${RETAILER}`);
  try {
    const plans = await api.request<Array<{ id: number; rules: { cover_kind: string } }>>('GET', '/api/customer/get_plans_warranty');
    const contract = plans.find((p) => p.rules.cover_kind === 'service_contract')!;
    const insurance = plans.find((p) => p.rules.cover_kind === 'insurance')!;
    const today = todayInIndia();
    const sell = (plan: number, name: { first: string; last: string }, mobile: string, customerId: number) =>
      api.request<{ id: number }>('POST', '/api/customer/extended_warranty', {
        plan_id: plan, first_name: name.first, last_name: name.last, mobile, email: 'venkatasubramaniyan.chakravarthy@example.co.in', customer_id: customerId,
        imei: randomImei(), brand: 'Samsung', model: 'Galaxy S25 Ultra Enterprise Edition 512GB Titanium', invoice_value_paise: 98_765_432, invoice_date: addDays(today, -3),
      });
    const revoked = await sell(insurance.id, TAMIL_NAME, '+919811122244', data.tamil);
    await api.request('POST', '/api/customer/extended_warranty/revoke', { sale_id: revoked.id, reason: 'வாடிக்கையாளர் தொலைபேசியைத் திருப்பிக் கொடுத்தார்; பணம் முழுவதும் திருப்பித் தரப்பட்டது' });
    await sell(insurance.id, TAMIL_NAME, '+919811122244', data.tamil);
    const inCover = await sell(contract.id, LATIN_NAME, '+919811122233', data.latin);
    return { inCover: inCover.id, revoked: revoked.id, insurancePlan: insurance.id };
  } finally {
    await api.signOut().catch(() => undefined);
  }
}

/** Package names near the longest a phone reports, for the family-care rules and its usage chart. */
export const LONG_APPS = [
  'in.gov.tamilnadu.samacheerkalvi.textbooks.standard_twelve.physics.volume_two',
  'com.venkateswara.tiruchirappalli.mathematics_olympiad.preparation.offline',
  'org.khanacademy.android',
  'com.google.android.youtube',
] as const;

/**
 * A child's phone sold family care on its own (no loan) to the Latin 60-character name: enrolled, with the strictest
 * rules the form allows to read long (a limit each day, four bedtime windows, long package names allowed and blocked,
 * locked for two hours), and three days of usage of long-named apps, reported by the phone. The demo seed gives this
 * retailer no family-care keys: the operator tops one up first.
 */
export async function addLongFamilyCare(server: string, appSecret: string): Promise<number> {
  await runOperator(server, appSecret, ['keys', `+91${RETAILER}`, String(PRODUCT_TYPE.FAMILYCARE), '1']);
  const api = new RetailerApi(server, 'family care');
  await api.signIn(`+91${RETAILER}`);
  try {
    const plans = await api.request<Array<{ id: number; product_id: number }>>('GET', '/api/customer/get_plans_familycare');
    const plan = plans[0];
    if (!plan) throw new Error('the organisation has no family-care plan');
    const imei = randomImei();
    const { customer } = await api.request<{ customer: { id: number } }>('POST', '/api/customer/plan-phone', {
      first_name: LATIN_NAME.first, last_name: LATIN_NAME.last, mobile: '+919811122299', alt_mobile: '+919811122200',
      device_brand: 'Samsung', device_model: 'Galaxy S25 Ultra Enterprise Edition 512GB Titanium', imei1: imei, provisioning_type: 0,
      product_id: plan.product_id, plan_id: plan.id,
    });
    // The phone's clock starts two days back, so its week has three days of usage; the apps it is given are always
    // allowed, so neither the lock nor bedtime keeps them closed.
    const today = todayInIndia();
    const clock = { now: Date.parse(`${addDays(today, -2)}T10:00:00+05:30`) };
    const { qr_payload } = await api.request<{ qr_payload: string }>('GET', `/api/customer/generate_emm_code?customer_id=${customer.id}`);
    const agent = new DeviceAgent({ store: new MemoryStore(), now: () => clock.now });
    await agent.enrol(parseEnrolmentPayload(qr_payload), { imei1: imei }, [{ slot: 0, operator: 'BSNL Tamil Nadu Circle Postpaid 4G Plus', iccid: '89914500001234567899' }]);
    agent.start();
    try {
      await api.request('POST', '/api/customer/familycare', {
        customer_id: customer.id,
        rules: {
          daily_limit_minutes: [240, 90, 90, 90, 90, 90, 1440],
          downtime: [{ start: '21:30', end: '06:30' }, { start: '13:00', end: '14:00' }, { start: '16:30', end: '17:15' }, { start: '19:00', end: '19:45' }],
          allowed_apps: [...LONG_APPS.slice(0, 3), 'com.android.calculator2'],
          blocked_apps: ['com.supercell.clashofclans.global_edition.battle_pass', 'com.example.game', LONG_APPS[3]],
          lock_until: new Date(Date.now() + 2 * 3_600_000).toISOString(),
        },
      });
      for (let i = 0; i < 100 && agent.snapshot().familyCare?.version !== 1; i++) await new Promise((r) => setTimeout(r, 100));
      if (agent.snapshot().familyCare?.version !== 1) throw new Error('the family-care phone did not take its rules');
      const use = (app: string, minutes: number) => {
        agent.openApp(app);
        clock.now += minutes * 60_000;
        agent.tick();
        agent.closeApp();
      };
      use(LONG_APPS[0], 95);
      use(LONG_APPS[1], 40);
      clock.now = Date.parse(`${addDays(today, -1)}T10:00:00+05:30`);
      use(LONG_APPS[1], 130);
      use(LONG_APPS[2], 25);
      use('com.android.dialer', 12);
      clock.now = Date.parse(`${today}T00:05:00+05:30`);
      use(LONG_APPS[2], 20);
      use(LONG_APPS[0], 7);
      agent.reportUsage();
      if (!(await agent.outboxEmpty(20_000))) throw new Error('the family-care phone could not report its usage');
    } finally {
      await agent.stop();
    }
    return customer.id;
  } finally {
    await api.signOut().catch(() => undefined);
  }
}

/** An offer near the longest the server takes (65 and 240 characters), in Tamil, with a long link. */
export const TAMIL_OFFER = {
  title: 'தீபாவளிச் சிறப்புச் சலுகை: போன்களுக்கு இலவச ஸ்கிரீன்கார்டு 2026',
  text: 'இந்த வாரம் எந்த ரீசார்ஜ் செய்தாலும் உங்கள் போனுக்கு ஸ்கிரீன் கார்டு இலவசமாகப் பொருத்தித் தருகிறோம். திருச்சிராப்பள்ளி ஸ்ரீரங்கம் கடைக்கு வாருங்கள்; புதிய மாடல்களுக்கு எளிய தவணை வசதியும் உண்டு. சலுகை வெள்ளிக்கிழமை வரை மட்டுமே.',
  link: 'https://srivenkateswara-mobiles-tiruchirappalli.example/offers/deepavali-2026',
};

/**
 * An offer from the retailer with the long Tamil title and message to a phone enrolled for it (which shows it and
 * whose customer opens it) and to the Latin customer, whose phone never enrolled (skipped: no phone). The demo seed's
 * keys are kept for the other data: the operator tops one up first.
 */
export async function addLongCampaign(server: string, appSecret: string): Promise<number> {
  await runOperator(server, appSecret, ['keys', `+91${RETAILER}`, '0', '1']);
  const api = new RetailerApi(server, 'offers');
  await api.signIn(`+91${RETAILER}`);
  const imei = randomImei();
  const agent = new DeviceAgent({ store: new MemoryStore() });
  try {
    const customerId = await addLongCustomer(api, TAMIL_NAME, '+919811122211', imei);
    await agent.enrol(parseEnrolmentPayload(await api.qrPayload(customerId)), { imei1: imei });
    agent.start();
    const latin = (await api.request<{ items: Array<{ id: number; first_name: string }> }>('GET', `/api/customer/get_customers_keygen?status=all&search=${encodeURIComponent(LATIN_NAME.first)}`)).items[0];
    const campaign = await api.request<{ id: number }>('POST', '/api/ads/campaigns', {
      ...TAMIL_OFFER, audience: { kind: 'picked', customer_ids: [customerId, ...(latin ? [latin.id] : [])] },
    });
    for (let i = 0; i < 200 && !agent.snapshot().offers?.some((o) => o.campaignId === campaign.id); i++) await new Promise((r) => setTimeout(r, 100));
    if (!agent.openOffer(campaign.id)) throw new Error('the phone did not show the offer');
    if (!(await agent.outboxEmpty(20_000))) throw new Error('the phone could not report the offer opened');
    return campaign.id;
  } finally {
    await agent.stop();
    await api.signOut().catch(() => undefined);
  }
}

/** A shop's UPI QR with a long payee name, as a phone photo of the sticker would hold it. */
export function paymentQrPng(): Promise<Buffer> {
  const link = `upi://pay?pa=${encodeURIComponent('srivenkateswara.mobiles.tiruchirappalli@okhdfcbank')}&pn=${encodeURIComponent('Sri Venkateswara Mobiles and Electronics Tiruchirappalli')}&cu=INR`;
  return QRCode.toBuffer(link, { type: 'png', width: 480, margin: 4 });
}

/** Uploads the retailer's payment QR through its screen (the page is signed in, in English). */
export async function uploadPaymentQr(page: Page) {
  await navigateInApp(page, ROUTES.retailer_payment_qr);
  await page.getByRole('group', { name: en('paymentQr.pick') }).locator('input[type=file]:not([capture])').setInputFiles({ name: 'upi-qr.png', mimeType: 'image/png', buffer: await paymentQrPng() });
  await page.getByRole('button', { name: en('documents.upload') }).click();
  await page.getByText('srivenkateswara.mobiles.tiruchirappalli@okhdfcbank', { exact: true }).waitFor();
}

/** Every screen to visit once signed in: each registered route (with its examples) and an unknown address. */
export function signedInScreens(data: Data): Array<{ name: string; path: string }> {
  const screens = registeredRoutes()
    .filter((name) => !SIGN_IN_ROUTES.includes(name))
    .flatMap((name) => addressesOf(name, data).map((path) => ({ name: name as string, path })));
  return [...screens, { name: 'not_found', path: '/no-such-screen' }];
}

/** Runs an operator command on the test server (its local endpoint, with the key derived from the app secret), e.g. a feature switch. */
export async function runOperator(server: string, appSecret: string, args: string[]): Promise<void> {
  const key = createHmac('sha256', appSecret).update('operator-endpoint').digest('hex');
  const res = await fetch(`${server.replace(/\/+$/, '')}/api/operator/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-key': key },
    body: JSON.stringify({ args }),
  });
  const body = (await res.json()) as { code?: number; lines?: string[] };
  if (!res.ok || body.code !== 0) throw new Error(`operator ${args.join(' ')}: ${res.status} ${JSON.stringify(body)}`);
}

/** Switches the demo organisation's payment gateway on or off (off by default, as the spec says). */
export const setPaymentGateway = (server: string, appSecret: string, on: boolean) => runOperator(server, appSecret, ['feature', '23', 'payment_gateway', on ? 'on' : 'off']);

/** The local fake of the payment gateway's API on `port`, sending its signed webhooks to the server's webhook route. */
export function startLocalGateway(server: string, port: number) {
  const base = server.replace(/\/+$/, '');
  return startFakeRazorpay({
    port,
    sink: async (body, headers) => (await fetch(`${base}/api/payments/webhook/razorpay`, { method: 'POST', headers, body })).status,
  });
}

/**
 * A gateway payment held for review, as the payments screen shows it: the customer's order is opened with the
 * gateway on (a local fake of its API on `gatewayPort`, which the server's adapter points at), the payer's app pays
 * another amount, and the webhook holds it. The gateway switch is left off again. `retailerMobile`: the customer's
 * retailer (ten digits).
 */
export async function createHeldPayment(server: string, appSecret: string, gatewayPort: number, customerId: number, retailerMobile = RETAILER): Promise<void> {
  const base = server.replace(/\/+$/, '');
  const gateway = await startLocalGateway(base, gatewayPort);
  await setPaymentGateway(base, appSecret, true);
  const api = new RetailerApi(base, 'held payment');
  try {
    await api.signIn(`+91${retailerMobile}`);
    const order = await api.request<{ id: string; amount_paise: number }>('POST', '/api/payments/customer_order', { customer_id: customerId });
    await gateway.pay(order.id, { amount: order.amount_paise - 12_345 });
    for (let i = 0; i < 100; i++) {
      const { items } = await api.request<{ items: Array<{ id: string; status: string }> }>('GET', '/api/payments/orders');
      if (items.find((o) => o.id === order.id)?.status === 'held') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the underpaid order was not held');
  } finally {
    await api.signOut().catch(() => undefined);
    await setPaymentGateway(base, appSecret, false);
    await gateway.close();
  }
}
