/**
 * Enrolment and reading of customers. Enrolment is one transaction: the customer, its IMEIs (unique among
 * active loans), its instalment schedule and one license key of the product's type; any failure leaves
 * nothing behind. A retailer sees its whole network; a mini-retailer only the customers it enrolled.
 */
import { generateSchedule, LoanTermsError, type Instalment, type LoanTerms, type Schedule } from '@kisht/domain/emi';
import { buildProductSchedule, keyFacts, LoanProductError, offeredRate, requestFromTerms } from '@kisht/domain/loan-product';
import type { LoanProduct } from '@kisht/contract/catalogue';
import { isValidImei } from '@kisht/domain/imei';
import { isValidIdNumber, maskIdNumber, normaliseIdNumber, type IdType } from '@kisht/domain/identity';
import { isActiveLoan } from '@kisht/domain/customer-status';
import { isPlanOnlyProduct } from '@kisht/domain/plans';
import { todayInIndia } from '@kisht/domain/format';
import type { Database, Queryable } from '../../db/database.ts';
import { KEY_STOCK_LOW_MAX } from '@kisht/domain/key-stock';
import { createNotificationsRepository } from '../notifications/notifications.repository.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import type { ValidationRule } from '../../shared/messages.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { CreateCustomerBody, CreateFinancedCustomerBody, CreatePlanPhoneBody, CustomerList, CustomerListQuery, CustomerProfile, CustomerCreated, UpdateCustomerDetailsBody, UpdateRegistrationBody } from '@kisht/contract/customers';
import type { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import type { LicensesRepository } from '../licenses/licenses.repository.ts';
import type { Notify } from '../events/events.bus.ts';
import type { CustomerListFilter, CustomerRow, CustomersRepository } from './customers.repository.ts';
import { ownRetailerOf } from './customers.repository.ts';
import type { EmiRepository } from '../emi/emi.repository.ts';

type Problem = { field: string; message: string; rule: ValidationRule };

const LOAN_FIELD: Record<keyof LoanTerms, string> = {
  pricePaise: 'price_paise',
  downPaymentPaise: 'down_payment_paise',
  processingFeePaise: 'processing_fee_paise',
  annualRateBps: 'annual_rate_bps',
  method: 'interest_method',
  tenureMonths: 'tenure_months',
  advanceEmis: 'advance_emis',
  startDate: 'start_date',
  firstDueDate: 'first_due_date',
};

/** The body's fields for a loan product's refusals (LoanProductError names the request's or the settings' field). */
const PRODUCT_FIELD: Record<string, string> = {
  pricePaise: 'price_paise', downPaymentPaise: 'down_payment_paise', processingFeePaise: 'processing_fee_paise', annualRate: 'annual_rate',
  periods: 'tenure_months', advanceInstalments: 'advance_emis', disbursementDate: 'start_date', firstDueDate: 'first_due_date', dueDay: 'first_due_date',
};

/** A loan's instalments and what the customer row keeps of it, from the standard rule or a loan product. */
interface PlannedLoan {
  instalments: Array<Instalment & { taxPaise?: number }>;
  emiPaise: number;
  annualRateBps: number;
  method: 'reducing' | 'flat';
  loanProductId: number | null;
  loanTerms: unknown;
}

/** "1399" basis points as the exact decimal "13.99". */
const bpsAsRate = (bps: number) => `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;

/**
 * A loan product's schedule and the copy of its settings, exact rate and KFS the loan keeps (decision 027), or
 * null with the refusal added to `problems`.
 */
function productLoanOrProblem(product: LoanProduct, terms: LoanTerms, annualRate: string | undefined, problems: Problem[]): PlannedLoan | null {
  // A refusal of the rate is said on the field the caller sent it in.
  const rateField = annualRate === undefined ? 'annual_rate_bps' : 'annual_rate';
  const offered = offeredRate(annualRate ?? bpsAsRate(terms.annualRateBps));
  if (!offered) {
    problems.push({ field: rateField, message: 'must be a rate of 0 to 60 per cent a year', rule: 'loan_terms' });
    return null;
  }
  const request = requestFromTerms(terms, offered.rate);
  try {
    const schedule = buildProductSchedule(product.settings, request);
    return {
      instalments: schedule.instalments,
      emiPaise: schedule.emiPaise,
      annualRateBps: offered.bps,
      method: product.settings.interest === 'reducing' ? 'reducing' : 'flat',
      loanProductId: product.id,
      loanTerms: { product: { id: product.id, name: product.name }, settings: product.settings, annual_rate: offered.rate, key_facts: keyFacts(product.settings, request, schedule) },
    };
  } catch (error) {
    if (!(error instanceof LoanProductError)) throw error;
    const named = error.field === 'annualRate' ? rateField : PRODUCT_FIELD[error.field];
    const field = error.rule === 'product_settings' ? 'loan_product_id' : (named ?? 'loan_product_id');
    problems.push({ field, message: error.message.replace(/^[\w.]+: /, ''), rule: error.rule });
    return null;
  }
}

/** The schedule of these terms, or null with the refusal added to `problems` (the schedule is the last check). */
function scheduleOrProblem(terms: LoanTerms, problems: Problem[]): Schedule | null {
  try {
    return generateSchedule(terms);
  } catch (error) {
    if (!(error instanceof LoanTermsError)) throw error;
    problems.push({ field: LOAN_FIELD[error.field], message: error.message.replace(/^\w+: /, ''), rule: error.rule });
    return null;
  }
}

/** The standard rule's schedule (decision 006) as a planned loan; null when it was refused. */
function standardLoan(schedule: Schedule | null, terms: LoanTerms): PlannedLoan | null {
  if (!schedule) return null;
  return { instalments: schedule.instalments, emiPaise: schedule.emiPaise, annualRateBps: terms.annualRateBps, method: terms.method, loanProductId: null, loanTerms: null };
}

/** The IMEIs' check digits, and a second IMEI that repeats the first: at enrolment and when the IMEIs are edited. */
function imeiProblems(imei1: string, imei2: string | null | undefined): Problem[] {
  const problems: Problem[] = [];
  if (!isValidImei(imei1)) problems.push({ field: 'imei1', message: 'is not a valid IMEI (check digit)', rule: 'imei_invalid' });
  if (imei2 && !isValidImei(imei2)) problems.push({ field: 'imei2', message: 'is not a valid IMEI (check digit)', rule: 'imei_invalid' });
  if (imei2 && imei2 === imei1) problems.push({ field: 'imei2', message: 'must differ from IMEI 1', rule: 'imei_same' });
  return problems;
}

export function toCustomerProfile(row: CustomerRow): CustomerProfile {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    mobile: row.mobile,
    alt_mobile: row.alt_mobile,
    email: row.email,
    address: row.address,
    state_id: row.state_id,
    city_id: row.city_id,
    pincode: row.pincode,
    date_of_birth: row.date_of_birth,
    id_type: row.id_type,
    id_number_masked: maskIdNumber(row.id_number),
    has_photo: row.photo_path !== null,
    has_signature: row.signature_path !== null,
    has_witness_signature: row.witness_signature_path !== null,
    has_invoice: row.invoice_path !== null,
    device_brand: row.device_brand,
    device_model: row.device_model,
    imei1: row.imei1,
    imei2: row.imei2,
    serial_number: row.serial_number,
    provisioning_type: row.provisioning_type,
    product_id: row.product_id,
    product_type: row.product_type,
    plan_id: row.plan_id,
    financier_id: row.financier_id,
    financier_reference: row.financier_reference,
    price_paise: row.price_paise,
    down_payment_paise: row.down_payment_paise,
    processing_fee_paise: row.processing_fee_paise,
    annual_rate_bps: row.annual_rate_bps,
    interest_method: row.interest_method,
    tenure_months: row.tenure_months,
    advance_emis: row.advance_emis,
    start_date: row.start_date,
    first_due_date: row.first_due_date,
    emi_paise: row.emi_paise,
    loan_terms: (row.loan_terms as CustomerProfile['loan_terms'] | undefined) ?? null,
    install_status: row.install_status,
    lock_status: row.lock_status,
    allowed_actions: row.allowed_actions,
    language: row.language ?? null,
    retailer_id: row.retailer_id,
    created_at: row.created_at.toISOString(),
  };
}


export interface CustomersServiceDeps {
  db: Database;
  /** The payment ledger, for the advance EMIs collected at enrolment. */
  ledger: EmiRepository;
  customers: CustomersRepository;
  licenses: LicensesRepository;
  catalogue: CatalogueRepository;
  /** Server events (modules/events): open screens hear of a new or edited customer. */
  notify?: Notify;
  /** Removes stored document files (after the customer they belonged to is gone). */
  removeFile?: (relative: string) => Promise<void>;
}

/** A mini-retailer's list is its own customers, whatever filter it sends. */
function scopedTo<Q extends CustomerListFilter>(caller: RequestAuth, query: Q): Q {
  const own = ownRetailerOf(caller);
  return own !== null ? { ...query, retailer_id: own } : query;
}

export function createCustomersService(deps: CustomersServiceDeps) {
  const { db, customers, licenses, catalogue } = deps;
  const notices = createNotificationsRepository(db);

  /** A customer of the caller's network that the caller may see, or NOT_FOUND (also for other networks' ids). */
  async function visible(caller: RequestAuth, id: number): Promise<CustomerRow> {
    const row = await customers.findInAccount(caller.accountId, id);
    const own = ownRetailerOf(caller);
    if (!row || (own !== null && row.retailer_id !== own)) throw new AppError('NOT_FOUND');
    return row;
  }

  /**
   * The member's bell when an enrolment takes its stock of a type into the dashboard's amber (KEY_STOCK_LOW_MAX left)
   * or to none: once on the way down, not at every key (issue 14).
   */
  async function tellLowKeys(userId: number, productType: number, left: number, q: Queryable): Promise<number[]> {
    if (left !== KEY_STOCK_LOW_MAX && left !== 0) return [];
    return notices.toMember(userId, 'keys_low', { product_type: productType, balance: left }, q);
  }

  /**
   * An enrolment's one transaction: `write` stores the customer (and a loan's schedule), then its IMEIs are claimed
   * (a unique violation: IMEI_IN_USE) and one key of the product's type is taken (none: NO_LICENSE_KEY); any failure
   * leaves nothing behind. Open screens, the key stock and a low-stock notification follow after commit.
   */
  async function enrol(caller: RequestAuth, productType: number, imeis: string[], write: (tx: Queryable) => Promise<number>): Promise<CustomerCreated> {
    const { id, left, told } = await db
      .transaction(async (tx) => {
        const customerId = await write(tx);
        await customers.claimImeis(customerId, imeis, tx);
        const keysLeft = await licenses.consume(caller.userId, productType, customerId, tx);
        if (keysLeft === null) throw new AppError('NO_LICENSE_KEY');
        return { id: customerId, left: keysLeft, told: await tellLowKeys(caller.userId, productType, keysLeft, tx) };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new AppError('IMEI_IN_USE');
        throw error;
      });
    deps.notify?.({ type: 'customer', customer_ids: [id] }); // events
    deps.notify?.({ type: 'network', user_ids: [caller.userId] }); // one key fewer: the key stock and histories
    if (told.length > 0) deps.notify?.({ type: 'notification', user_ids: told });
    return { customer: toCustomerProfile(await visible(caller, id)), keys_left: left };
  }

  return {
    visible,

    async create(caller: RequestAuth, body: CreateCustomerBody | CreateFinancedCustomerBody): Promise<CustomerCreated> {
      const problems: Problem[] = [];
      const imeis = [body.imei1, ...(body.imei2 ? [body.imei2] : [])];
      problems.push(...imeiProblems(body.imei1, body.imei2));
      if ((body.id_type === undefined) !== (body.id_number === undefined)) problems.push({ field: 'id_number', message: 'needs both the document type and its number', rule: 'id_needs_both' });
      if (body.id_type && body.id_number && !isValidIdNumber(body.id_type, body.id_number)) problems.push({ field: 'id_number', message: `is not a valid ${body.id_type} number`, rule: 'id_number_invalid' });

      const product = await catalogue.product(caller.orgId, body.product_id);
      if (!product) problems.push({ field: 'product_id', message: 'is not a product of your organisation', rule: 'not_your_product' });
      if (body.plan_id !== undefined) {
        const plan = await catalogue.plan(caller.orgId, body.plan_id);
        if (!plan || plan.product_id !== body.product_id) problems.push({ field: 'plan_id', message: 'is not a plan of this product', rule: 'plan_not_of_product' });
      }
      const reference = 'financier_reference' in body ? body.financier_reference : {};
      if (body.financier_id !== undefined) {
        const financier = await catalogue.financier(caller.orgId, body.financier_id);
        if (!financier) problems.push({ field: 'financier_id', message: 'is not a financier of your organisation', rule: 'not_your_financier' });
        for (const field of financier?.required_fields ?? []) {
          if (!reference[field]) problems.push({ field: `financier_reference.${field}`, message: `is required by ${financier!.name}`, rule: 'financier_field_required' });
        }
      }
      if (body.city_id !== undefined && (body.state_id === undefined || !(await catalogue.cityInState(body.city_id, body.state_id)))) {
        problems.push({ field: 'city_id', message: 'is not a city of the chosen state', rule: 'city_not_in_state' });
      }

      const terms: LoanTerms = {
        pricePaise: body.price_paise,
        downPaymentPaise: body.down_payment_paise,
        processingFeePaise: body.processing_fee_paise ?? 0,
        annualRateBps: body.annual_rate_bps,
        method: body.interest_method,
        tenureMonths: body.tenure_months,
        advanceEmis: body.advance_emis ?? 0,
        startDate: body.start_date ?? todayInIndia(),
        firstDueDate: body.first_due_date,
      };
      let loanProduct: LoanProduct | undefined;
      if (body.loan_product_id !== undefined) {
        loanProduct = await catalogue.loanProduct(caller.orgId, body.loan_product_id);
        if (!loanProduct) problems.push({ field: 'loan_product_id', message: 'is not a loan product of your organisation', rule: 'not_your_loan_product' });
      } else if (body.annual_rate !== undefined) {
        problems.push({ field: 'annual_rate', message: 'is taken with a loan product only; without one the rate is annual_rate_bps', rule: 'invalid' });
      }
      // The schedule itself is the last check: terms in range can still be too small a loan for its instalments.
      // A product that is not the caller's decides nothing: no schedule is tried for it.
      const planned = loanProduct
        ? productLoanOrProblem(loanProduct, terms, body.annual_rate, problems)
        : body.loan_product_id === undefined ? standardLoan(scheduleOrProblem(terms, problems), terms) : null;
      if (problems.length > 0 || !product || !planned) throw new AppError('VALIDATION_FAILED', { details: problems });
      return enrol(caller, product.product_type, imeis, async (tx) => {
        const customerId = await customers.insert({
          org_id: caller.orgId, account_id: caller.accountId, retailer_id: caller.userId,
          first_name: body.first_name.trim(), last_name: body.last_name.trim(), mobile: body.mobile,
          alt_mobile: body.alt_mobile ?? null, email: body.email ?? null, address: body.address?.trim() || null,
          state_id: body.state_id ?? null, city_id: body.city_id ?? null, pincode: body.pincode ?? null,
          date_of_birth: body.date_of_birth ?? null, id_type: body.id_type ?? null,
          id_number: body.id_number ? normaliseIdNumber(body.id_number) : null,
          device_brand: body.device_brand.trim(), device_model: body.device_model.trim(), imei1: body.imei1,
          imei2: body.imei2 ?? null, serial_number: body.serial_number?.trim() || null,
          provisioning_type: body.provisioning_type, product_id: product.id, plan_id: body.plan_id ?? null,
          financier_id: body.financier_id ?? null, financier_reference: reference,
          price_paise: terms.pricePaise, down_payment_paise: terms.downPaymentPaise, processing_fee_paise: terms.processingFeePaise,
          annual_rate_bps: planned.annualRateBps, interest_method: planned.method, tenure_months: terms.tenureMonths,
          advance_emis: terms.advanceEmis, start_date: terms.startDate, first_due_date: terms.firstDueDate, emi_paise: planned.emiPaise,
          loan_product_id: planned.loanProductId, loan_terms: planned.loanTerms,
        }, tx);
        const rows = await customers.insertSchedule(customerId, caller.accountId, planned.instalments, tx);
        // Advance EMIs are collected at enrolment: they go into the ledger with a receipt at once.
        const advance = planned.instalments.filter((i) => i.advance);
        if (advance.length > 0) {
          const idOf = new Map(rows.map((r) => [r.number, r.id]));
          await deps.ledger.record(
            { customer_id: customerId, account_id: caller.accountId, kind: 'payment', amount_paise: advance.reduce((s, i) => s + i.amountPaise, 0), reverses_id: null, method: 'cash', reference: null, note: 'Advance EMIs collected at enrolment', created_by: caller.userId },
            advance.map((i) => ({
              instalment_id: idOf.get(i.number)!, amount_paise: i.amountPaise,
              parts: { penalty_paise: 0, interest_paise: i.interestPaise, tax_paise: i.taxPaise ?? 0, principal_paise: i.amountPaise - i.interestPaise - (i.taxPaise ?? 0) },
            })),
            tx,
          );
        }
        return customerId;
      });
    },

    /**
     * A phone sold on a plan alone (decision 023): anti-theft or family care, no loan. One transaction: the customer
     * (its loan columns empty), its IMEIs (unique among active phones, as for loans) and one key of the product's type.
     * The phone then enrols from its EMM QR as a financed phone does.
     */
    async createPlanPhone(caller: RequestAuth, body: CreatePlanPhoneBody): Promise<CustomerCreated> {
      const problems: Problem[] = [];
      const imeis = [body.imei1, ...(body.imei2 ? [body.imei2] : [])];
      problems.push(...imeiProblems(body.imei1, body.imei2));
      const product = await catalogue.product(caller.orgId, body.product_id);
      if (!product) problems.push({ field: 'product_id', message: 'is not a product of your organisation', rule: 'not_your_product' });
      else if (!isPlanOnlyProduct(product.product_type)) problems.push({ field: 'product_id', message: 'is not sold on its own (anti-theft or family care)', rule: 'not_plan_product' });
      const plan = await catalogue.plan(caller.orgId, body.plan_id);
      if (!plan || plan.product_id !== body.product_id) problems.push({ field: 'plan_id', message: 'is not a plan of this product', rule: 'plan_not_of_product' });
      if (body.alt_mobile && body.alt_mobile === body.mobile) problems.push({ field: 'alt_mobile', message: "must differ from the phone's own number", rule: 'alt_mobile_same' });
      if (problems.length > 0 || !product) throw new AppError('VALIDATION_FAILED', { details: problems });

      return enrol(caller, product.product_type, imeis, (tx) =>
      customers.insert({
          org_id: caller.orgId, account_id: caller.accountId, retailer_id: caller.userId,
          first_name: body.first_name.trim(), last_name: body.last_name.trim(), mobile: body.mobile,
          alt_mobile: body.alt_mobile ?? null, email: body.email ?? null, address: null, state_id: null, city_id: null, pincode: null,
          date_of_birth: null, id_type: null, id_number: null,
          device_brand: body.device_brand.trim(), device_model: body.device_model.trim(), imei1: body.imei1,
          imei2: body.imei2 ?? null, serial_number: body.serial_number?.trim() || null,
          provisioning_type: body.provisioning_type, product_id: product.id, plan_id: body.plan_id,
          financier_id: null, financier_reference: {},
          price_paise: null, down_payment_paise: null, processing_fee_paise: 0, annual_rate_bps: null, interest_method: null, tenure_months: null,
          advance_emis: 0, start_date: null, first_due_date: null, emi_paise: null,
        }, tx));
    },

    /**
     * Cancels an enrolment that never started (the buyer walked away, a wrong phone was entered): the phone
     * never enrolled and nothing was paid. The customer goes, and its license key goes back to whoever used it
     * (a `released` line in the key history). Anything else is ENROLMENT_STARTED.
     */
    async cancelEnrolment(caller: RequestAuth, customerId: number): Promise<{ customer_id: number; keys_left: number | null }> {
      await visible(caller, customerId);
      const done = await db.transaction(async (tx) => {
        const removed = await customers.removeUnstarted(caller.accountId, customerId, tx);
        // Cancelled meanwhile by another request: gone, as for anyone who asks after.
        if (removed === 'gone') throw new AppError('NOT_FOUND');
        if (removed === 'started') throw new AppError('ENROLMENT_STARTED');
        const released = await licenses.release(customerId, tx);
        return { files: removed.files, released };
      });
      for (const file of done.files) await deps.removeFile?.(file).catch(() => undefined);
      deps.notify?.({ type: 'customer', customer_ids: [customerId] });
      if (done.released) deps.notify?.({ type: 'network', user_ids: [done.released.userId] });
      return { customer_id: customerId, keys_left: done.released?.balance ?? null };
    },

    /** update_customer_detailsV3: the buyer's personal details; checked like at enrolment. */
    async updateDetails(caller: RequestAuth, body: UpdateCustomerDetailsBody): Promise<CustomerProfile> {
      const current = await visible(caller, body.customer_id);
      const problems: Problem[] = [];
      const idType = body.id_type ?? current.id_type;
      const idNumber = body.id_number ?? current.id_number;
      if ((body.id_number !== undefined || body.id_type !== undefined) && (!idType || !idNumber || !isValidIdNumber(idType as IdType, idNumber))) {
        problems.push({ field: 'id_number', message: `is not a valid ${idType ?? 'identity'} number`, rule: 'id_number_invalid' });
      }
      const stateId = body.state_id !== undefined ? body.state_id : current.state_id;
      const cityId = body.city_id !== undefined ? body.city_id : current.city_id;
      if (cityId !== null && (stateId === null || !(await catalogue.cityInState(cityId, stateId)))) problems.push({ field: 'city_id', message: 'is not a city of the chosen state', rule: 'city_not_in_state' });
      if (problems.length > 0) throw new AppError('VALIDATION_FAILED', { details: problems });
      const { customer_id: _id, id_number, first_name, last_name, address, ...rest } = body;
      await customers.update(caller.accountId, current.id, {
        ...rest,
        ...(first_name !== undefined ? { first_name: first_name.trim() } : {}),
        ...(last_name !== undefined ? { last_name: last_name.trim() } : {}),
        ...(address !== undefined ? { address: address?.trim() || null } : {}),
        ...(id_number !== undefined ? { id_number: normaliseIdNumber(id_number) } : {}),
      });
      deps.notify?.({ type: 'customer', customer_ids: [current.id] }); // events
      return toCustomerProfile(await visible(caller, current.id));
    },

    /** customerRegistrationByKegenUpdateV3 (IMEI_EDIT): device and IMEIs, which stay unique among active loans. */
    async updateRegistration(caller: RequestAuth, body: UpdateRegistrationBody): Promise<CustomerProfile> {
      const current = await visible(caller, body.customer_id);
      const imei1 = body.imei1 ?? current.imei1;
      const imei2 = body.imei2 !== undefined ? body.imei2 : current.imei2;
      const problems = imeiProblems(imei1, imei2);
      if (problems.length > 0) throw new AppError('VALIDATION_FAILED', { details: problems });
      await db
        .transaction(async (tx) => {
          const { customer_id: _id, device_brand, device_model, serial_number } = body;
          await customers.update(caller.accountId, current.id, {
            imei1, imei2,
            ...(device_brand !== undefined ? { device_brand: device_brand.trim() } : {}),
            ...(device_model !== undefined ? { device_model: device_model.trim() } : {}),
            ...(serial_number !== undefined ? { serial_number: serial_number?.trim() || null } : {}),
          }, tx);
          if (isActiveLoan(current.install_status)) await customers.reclaimImeis(current.id, imei2 ? [imei1, imei2] : [imei1], tx);
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new AppError('IMEI_IN_USE');
          throw error;
        });
      deps.notify?.({ type: 'customer', customer_ids: [current.id] }); // events
      return toCustomerProfile(await visible(caller, current.id));
    },

    async profile(caller: RequestAuth, id: number): Promise<CustomerProfile> {
      return toCustomerProfile(await visible(caller, id));
    },

    async list(caller: RequestAuth, query: CustomerListQuery): Promise<CustomerList> {
      const { items, total, total_capped } = await customers.list(caller.accountId, scopedTo(caller, query));
      return { items, total, total_capped, page: query.page, limit: query.limit };
    },

    /** Every id the caller's list shows under this filter, newest first, at most `cap` (a bulk lock by filter). */
    async listIds(caller: RequestAuth, filter: CustomerListFilter, cap: number): Promise<number[]> {
      return customers.listIds(caller.accountId, scopedTo(caller, filter), cap);
    },
  };
}
export type CustomersService = ReturnType<typeof createCustomersService>;
