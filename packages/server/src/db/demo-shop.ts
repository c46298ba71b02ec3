/**
 * The demo shop: Ravi Mobiles' customers (and two of Sunita Telecom's) with their loans, EMI schedules and
 * payment history, so a fresh development server shows a living dashboard. Everything goes through the same
 * services the API uses (enrolment with its license key, payments through the ledger with receipts), dated
 * relative to today. Safe to run again: a customer whose IMEI is already there is not added twice, and each
 * payment carries an idempotency key, so a second run pays nothing twice.
 */
import { addDays, addMonths } from '@kisht/domain/calendar';
import { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS } from '@kisht/domain/constants';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import type { RequestAuth } from '../plugins/route-config.ts';
import type { CustomersService } from '../modules/customers/customers.service.ts';
import type { EmiService } from '../modules/emi/emi.service.ts';
import type { UserRow, UsersRepository } from '../modules/users/users.repository.ts';
import type { CatalogueRepository } from '../modules/catalogue/catalogue.repository.ts';
import { DEMO_USERS } from './seed.ts';

/** What the demo phone of a customer is for: the one to lock first, one locked at seeding, or just running. */
export type DemoRole = 'try-first' | 'locked' | 'phone';

export interface DemoCustomer {
  /** Index into DEMO_USERS of the retailer who sold the phone. */
  seller: 0 | 1;
  first_name: string;
  last_name: string;
  mobile: string;
  device_brand: string;
  device_model: string;
  /** The model's type allocation code (8 digits) and the phone's serial (6 digits); the check digit is computed. */
  tac: string;
  serial: string;
  dualSim: boolean;
  address: string;
  pincode: string;
  priceRupees: number;
  downRupees: number;
  rateBps: number;
  method: 'reducing' | 'flat';
  tenure: number;
  advance: number;
  /** The sale was this many days ago; the first monthly instalment falls a month later. */
  soldDaysAgo: number;
  /** Monthly instalments paid in full (oldest first), one receipt each, then an optional part payment. */
  paid: number | 'all';
  partRupees?: number;
  /** The order in which demo phones are handed out (customers without one are enrolled but not yet scanned). */
  role?: DemoRole;
}

/** In phone order: the first DEMO_PHONES customers with an open loan get a virtual phone. */
export const DEMO_SHOP: readonly DemoCustomer[] = [
  { seller: 0, first_name: 'Priya', last_name: 'Sharma', mobile: '+919829104417', device_brand: 'Redmi', device_model: 'Note 13 5G', tac: '86054806', serial: '318842', dualSim: true, address: '14, Gopalpura Bypass, Jaipur', pincode: '302018', priceRupees: 17_999, downRupees: 3_999, rateBps: 1400, method: 'reducing', tenure: 6, advance: 0, soldDaysAgo: 75, paid: 1, role: 'try-first' },
  { seller: 0, first_name: 'राजेश', last_name: 'कुमार', mobile: '+918003927150', device_brand: 'Vivo', device_model: 'Y28 5G', tac: '86245905', serial: '770215', dualSim: true, address: 'Near Shiv Mandir, Sanganer, Jaipur', pincode: '302029', priceRupees: 13_999, downRupees: 2_000, rateBps: 0, method: 'flat', tenure: 8, advance: 0, soldDaysAgo: 130, paid: 1, role: 'locked' },
  { seller: 0, first_name: 'Lakshmi', last_name: 'Venkataraman', mobile: '+919444180362', device_brand: 'Samsung', device_model: 'Galaxy A15 5G', tac: '35167819', serial: '402967', dualSim: true, address: 'C-9, Malviya Nagar, Jaipur', pincode: '302017', priceRupees: 19_499, downRupees: 4_500, rateBps: 1600, method: 'reducing', tenure: 12, advance: 0, soldDaysAgo: 95, paid: 3, role: 'phone' },
  { seller: 0, first_name: 'முருகன்', last_name: 'செல்வராஜ்', mobile: '+917708813245', device_brand: 'Realme', device_model: 'Narzo 70x', tac: '86727205', serial: '115638', dualSim: false, address: '22, Vaishali Nagar, Jaipur', pincode: '302021', priceRupees: 11_999, downRupees: 2_500, rateBps: 0, method: 'flat', tenure: 6, advance: 0, soldDaysAgo: 170, paid: 5, role: 'phone' },
  { seller: 0, first_name: 'Gurpreet Singh', last_name: 'Dhillon', mobile: '+919876012558', device_brand: 'OnePlus', device_model: 'Nord CE4 Lite', tac: '86521306', serial: '908341', dualSim: true, address: 'Plot 7, Mansarovar, Jaipur', pincode: '302020', priceRupees: 20_999, downRupees: 5_000, rateBps: 1200, method: 'flat', tenure: 10, advance: 1, soldDaysAgo: 10, paid: 0, role: 'phone' },
  { seller: 0, first_name: 'Mohammed Irfan', last_name: 'Shaikh', mobile: '+919950263781', device_brand: 'Samsung', device_model: 'Galaxy M15', tac: '35209412', serial: '263518', dualSim: true, address: 'Ramganj Bazaar, Jaipur', pincode: '302003', priceRupees: 13_299, downRupees: 3_000, rateBps: 1400, method: 'reducing', tenure: 9, advance: 0, soldDaysAgo: 0, paid: 0 },
  { seller: 0, first_name: 'সুমিত্রা', last_name: 'দাস', mobile: '+918017462093', device_brand: 'Oppo', device_model: 'A3x', tac: '86813906', serial: '547720', dualSim: true, address: 'Raja Park, Jaipur', pincode: '302004', priceRupees: 12_499, downRupees: 2_000, rateBps: 0, method: 'flat', tenure: 6, advance: 0, soldDaysAgo: 50, paid: 0 },
  { seller: 0, first_name: 'Om', last_name: 'Jha', mobile: '+916378245190', device_brand: 'Realme', device_model: 'C53', tac: '86727205', serial: '601174', dualSim: true, address: 'Jhotwara, Jaipur', pincode: '302012', priceRupees: 9_999, downRupees: 1_999, rateBps: 0, method: 'flat', tenure: 4, advance: 0, soldDaysAgo: 40, paid: 1 },
  { seller: 0, first_name: 'Venkata Satya Narayana Murthy', last_name: 'Chowdary', mobile: '+919849033716', device_brand: 'OnePlus', device_model: 'Nord CE4', tac: '86521306', serial: '912077', dualSim: true, address: 'Flat 301, Shyam Residency, Tonk Road, Jaipur', pincode: '302015', priceRupees: 24_999, downRupees: 5_000, rateBps: 1500, method: 'reducing', tenure: 10, advance: 0, soldDaysAgo: 100, paid: 2, partRupees: 1_000 },
  { seller: 0, first_name: 'ઝીલ', last_name: 'પટેલ', mobile: '+919725518034', device_brand: 'Oppo', device_model: 'A79 5G', tac: '86813906', serial: '552380', dualSim: true, address: 'Civil Lines, Jaipur', pincode: '302006', priceRupees: 17_499, downRupees: 3_500, rateBps: 1300, method: 'reducing', tenure: 9, advance: 0, soldDaysAgo: 35, paid: 1 },
  { seller: 0, first_name: 'తిరుపతి', last_name: 'రెడ్డి', mobile: '+919912647305', device_brand: 'Poco', device_model: 'M6 5G', tac: '86209607', serial: '334819', dualSim: true, address: 'Adarsh Nagar, Jaipur', pincode: '302004', priceRupees: 10_499, downRupees: 2_000, rateBps: 0, method: 'flat', tenure: 6, advance: 0, soldDaysAgo: 20, paid: 0 },
  { seller: 1, first_name: 'ਹਰਪ੍ਰੀਤ', last_name: 'ਕੌਰ', mobile: '+919815573920', device_brand: 'Samsung', device_model: 'Galaxy M14', tac: '35209412', serial: '280653', dualSim: true, address: 'Vaishali Nagar, Ajmer', pincode: '305006', priceRupees: 14_990, downRupees: 3_000, rateBps: 1400, method: 'reducing', tenure: 8, advance: 0, soldDaysAgo: 60, paid: 2 },
  { seller: 1, first_name: 'Fatima', last_name: 'Begum', mobile: '+919414306628', device_brand: 'Redmi', device_model: 'A3', tac: '86054806', serial: '329906', dualSim: true, address: 'Dargah Bazaar, Ajmer', pincode: '305001', priceRupees: 7_499, downRupees: 1_500, rateBps: 0, method: 'flat', tenure: 6, advance: 0, soldDaysAgo: 45, paid: 0 },
  // Paid off: the daily dues run marks these loans EMIs completed and frees their IMEIs.
  { seller: 0, first_name: 'ಶ್ರೀನಿವಾಸ', last_name: 'ಗೌಡ', mobile: '+919886420751', device_brand: 'Vivo', device_model: 'T3x 5G', tac: '86245905', serial: '781142', dualSim: true, address: 'Pratap Nagar, Jaipur', pincode: '302033', priceRupees: 12_999, downRupees: 3_000, rateBps: 0, method: 'flat', tenure: 6, advance: 0, soldDaysAgo: 200, paid: 'all' },
  { seller: 0, first_name: 'अंजली', last_name: 'देशमुख', mobile: '+919922318046', device_brand: 'Samsung', device_model: 'Galaxy A25 5G', tac: '35167819', serial: '415590', dualSim: true, address: 'Bani Park, Jaipur', pincode: '302016', priceRupees: 26_999, downRupees: 7_000, rateBps: 1400, method: 'reducing', tenure: 12, advance: 0, soldDaysAgo: 150, paid: 'all' },
];

export function imeisOf(c: Pick<DemoCustomer, 'tac' | 'serial' | 'dualSim'>): { imei1: string; imei2?: string } {
  const imei1 = withImeiCheckDigit(`${c.tac}${c.serial}`);
  if (!c.dualSim) return { imei1 };
  const next = String((Number(c.serial) + 1) % 1_000_000).padStart(6, '0');
  return { imei1, imei2: withImeiCheckDigit(`${c.tac}${next}`) };
}

export const displayName = (c: Pick<DemoCustomer, 'first_name' | 'last_name'>) => `${c.first_name} ${c.last_name}`;

/** The customer a newcomer should open first (its phone runs in the server): "open Priya Sharma, press Lock". */
export const TRY_FIRST = DEMO_SHOP.find((c) => c.role === 'try-first')!;

/** A demo retailer acting as if signed in: what the services expect of a request's caller. */
export function callerOf(user: UserRow): RequestAuth {
  return {
    userId: user.id, sessionId: 'demo-shop', orgId: user.org_id, accountId: user.account_id ?? user.id, userType: user.user_type,
    userAccess: { ...DEFAULT_USER_ACCESS, ...user.user_access }, lockAccess: { ...DEFAULT_LOCK_ACCESS, ...user.lock_access },
  };
}

export interface DemoShopDeps {
  customers: CustomersService;
  emi: EmiService;
  users: UsersRepository;
  catalogue: CatalogueRepository;
  today: string;
}

export interface SeededCustomer {
  spec: DemoCustomer;
  id: number;
  /** Created by this run (false: it was there already). */
  added: boolean;
}

/** The demo retailers as callers (Ravi, then Sunita); null when the demo retailers are not in the database. */
export async function demoCallers(users: UsersRepository): Promise<[RequestAuth, RequestAuth] | null> {
  const ravi = await users.findByMobile(DEMO_USERS[0].mobile);
  const sunita = await users.findByMobile(DEMO_USERS[1].mobile);
  return ravi && sunita ? [callerOf(ravi), callerOf(sunita)] : null;
}

/** The shop's customers already in the database, found by IMEI 1 in the retailer's list. */
export async function findDemoCustomers(customers: CustomersService, ravi: RequestAuth): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const spec of DEMO_SHOP) {
    const { imei1 } = imeisOf(spec);
    const hit = (await customers.list(ravi, { page: 1, limit: 5, status: 'all', search: imei1 })).items.find((i) => i.imei1 === imei1);
    if (hit) found.set(imei1, hit.id);
  }
  return found;
}

/** Adds what is missing of the demo shop; returns every shop customer in phone order. */
export async function seedDemoShop(deps: DemoShopDeps): Promise<SeededCustomer[]> {
  const callers = await demoCallers(deps.users);
  if (!callers) throw new Error('the demo shop needs the demo retailers (seedDemo first)');
  const existing = await findDemoCustomers(deps.customers, callers[0]);
  const dpc = new Map<number, number>();
  const seeded = new Map<DemoCustomer, SeededCustomer>();
  // Created last to first, so the list (newest first) opens with the customer to try first.
  for (const spec of [...DEMO_SHOP].reverse()) {
    const caller = callers[spec.seller];
    const imeis = imeisOf(spec);
    let id = existing.get(imeis.imei1);
    const added = id === undefined;
    if (id === undefined) {
      if (!dpc.has(caller.orgId)) {
        const product = (await deps.catalogue.products(caller.orgId)).find((p) => p.product_type === 0);
        if (!product) throw new Error(`organisation ${caller.orgId} has no DPC product for the demo shop`);
        dpc.set(caller.orgId, product.id);
      }
      const sold = addDays(deps.today, -spec.soldDaysAgo);
      const created = await deps.customers.create(caller, {
        first_name: spec.first_name, last_name: spec.last_name, mobile: spec.mobile, address: spec.address, pincode: spec.pincode,
        device_brand: spec.device_brand, device_model: spec.device_model, ...imeis, provisioning_type: 0, product_id: dpc.get(caller.orgId)!,
        price_paise: spec.priceRupees * 100, down_payment_paise: spec.downRupees * 100, annual_rate_bps: spec.rateBps, interest_method: spec.method,
        tenure_months: spec.tenure, advance_emis: spec.advance, start_date: sold, first_due_date: addMonths(sold, 1),
      });
      id = created.customer.id;
    }
    await payHistory(deps.emi, caller, id, spec, imeis.imei1);
    seeded.set(spec, { spec, id, added });
  }
  return DEMO_SHOP.map((spec) => seeded.get(spec)!);
}

/** One receipt per instalment paid, alternating cash and UPI, then the part payment; keyed so a rerun pays nothing twice. */
async function payHistory(emi: EmiService, caller: RequestAuth, customerId: number, spec: DemoCustomer, imei1: string): Promise<void> {
  const details = await emi.details(caller, customerId);
  const monthly = details.instalments.filter((i) => !i.advance);
  const count = spec.paid === 'all' ? monthly.length : spec.paid;
  for (const [n, instalment] of monthly.slice(0, count).entries()) {
    const upi = n % 2 === 1;
    await emi.payMany(caller, {
      customer_id: customerId, instalment_ids: [instalment.id], method: upi ? 'upi' : 'cash',
      ...(upi ? { reference: `UPI${imei1.slice(-6)}${String(n + 1).padStart(2, '0')}` } : {}), idempotency_key: `demo-${imei1}-${n + 1}`,
    }).catch(ignorePaid);
  }
  if (spec.partRupees) {
    await emi.payMany(caller, { customer_id: customerId, amount_paise: spec.partRupees * 100, method: 'cash', idempotency_key: `demo-${imei1}-part` }).catch(ignorePaid);
  }
}

/** An instalment the retailer already took by hand is fine: the history is there. */
function ignorePaid(error: unknown): void {
  if ((error as { code?: string }).code === 'NOTHING_DUE') return;
  throw error;
}
