/**
 * Collecting instalments. Every payment is appended to the ledger with its allocations (oldest due first
 * unless the retailer picks instalments) and gets a receipt; a correction is a reversal entry that undoes
 * one payment's allocations. A payment never exceeds what is owed.
 */
import { allocateByRule, buildStatement, foreclosureQuote, type OwedParts, type StatementEvent } from '@kisht/domain/loan-ledger';
import { STANDARD_PRODUCT, type LoanProductSettings } from '@kisht/domain/loan-product';
import { hasLoan } from '@kisht/domain/plans';
import { addDays, daysBetween } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { FALLBACK_LANGUAGE, isLanguage } from '@kisht/domain/constants';
import type { Database, Queryable } from '../../db/database.ts';
import { MAX_PAISE } from '@kisht/contract/customers';
import type { CustomersRepository } from '../customers/customers.repository.ts';
import { ownRetailerOf } from '../customers/customers.repository.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import { translate } from '../../shared/messages.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { AddInstalmentBody, Alert, AlertBody, EditInstalmentBody, EmiDetails, ForecloseBody, ForeclosureQuote, InstalmentChange, InstalmentView, Outstanding, PayManyBody, PayOneBody, PaymentItem, PenaltyBody, Receipt, ReverseBody, Statement, StatementLine, UpcomingCounts, UpcomingList, UpcomingQuery, WaiveBody } from '@kisht/contract/emi';
import type { LoanTermsView } from '@kisht/contract/loan-terms';
import type { CustomersService } from '../customers/customers.service.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { OrgRepository } from '../config/org.repository.ts';
import type { ChangedFields, EmiRepository, InstalmentRow, Parts } from './emi.repository.ts';
import type { Notify } from '../events/events.bus.ts';

const owed = (i: InstalmentRow) => i.amount_paise + i.penalty_paise - i.paid_paise;

/** What is still owed on an instalment, by part; principal is the rest of what it owes. */
function owedParts(i: InstalmentRow): OwedParts {
  const penaltyPaise = i.penalty_paise - i.paid_penalty_paise;
  const interestPaise = Math.max(0, i.interest_paise - i.paid_interest_paise);
  const taxPaise = Math.max(0, i.tax_paise - i.paid_tax_paise);
  return { number: i.number, penaltyPaise, interestPaise, taxPaise, principalPaise: owed(i) - penaltyPaise - interestPaise - taxPaise };
}

/** The settings a loan was made with: its product's copy, or the platform's standard rule for loans made without one. */
export function loanSettingsOf(customer: { loan_terms?: unknown }): LoanProductSettings {
  return (customer.loan_terms as LoanTermsView | null)?.settings ?? STANDARD_PRODUCT;
}

/**
 * What a reversal takes back of each part of one instalment: the parts the payment paid, where the instalment
 * still has them paid (an edit since may have spread its paid total again); otherwise, and for payments recorded
 * before the split, principal first, then GST, interest and penalty, the reverse of the standard order.
 */
export function takeBack(instalment: InstalmentRow, amountPaise: number, paid: Parts | null): Parts {
  if (paid && paid.penalty_paise <= instalment.paid_penalty_paise && paid.interest_paise <= instalment.paid_interest_paise
    && paid.tax_paise <= instalment.paid_tax_paise && paid.principal_paise <= instalment.paid_principal_paise) return paid;
  let left = amountPaise;
  const from = (available: number) => {
    const taken = Math.min(left, available);
    left -= taken;
    return taken;
  };
  const principal_paise = from(instalment.paid_principal_paise);
  const tax_paise = from(instalment.paid_tax_paise);
  const interest_paise = from(instalment.paid_interest_paise);
  const penalty_paise = from(instalment.paid_penalty_paise);
  if (left > 0) throw new Error(`instalment ${instalment.id} has ${instalment.paid_paise} paise paid, less than the ${amountPaise} to take back`);
  return { penalty_paise, interest_paise, tax_paise, principal_paise };
}

/** The reason a foreclosure fee is charged with: a code the console words in the user's language. */
export const FORECLOSURE_FEE_REASON = 'foreclosure_fee';
/** The note a foreclosure's payment is recorded with (a code, worded by the console). */
export const FORECLOSURE_NOTE = 'foreclosure';

const negate = (p: Parts): Parts => ({ penalty_paise: -p.penalty_paise, interest_paise: -p.interest_paise, tax_paise: -p.tax_paise, principal_paise: -p.principal_paise });
const fieldsOf = (i: InstalmentRow): ChangedFields => ({ due_date: i.due_date, amount_paise: i.amount_paise, penalty_paise: i.penalty_paise });
const byDueDate = (a: InstalmentRow, b: InstalmentRow) => (a.due_date === b.due_date ? a.number - b.number : a.due_date < b.due_date ? -1 : 1);

/**
 * The amount that closes the loan on `day` (domain foreclosureQuote over what each instalment still owes), and
 * the interest and GST accrued in the current period, which a foreclosure keeps on that period's instalment.
 */
function quoteOf(settings: LoanProductSettings, disbursementDate: string, instalments: InstalmentRow[], day: string) {
  const quote = foreclosureQuote(settings, disbursementDate, instalments.map((i) => ({ ...owedParts(i), dueDate: i.due_date, scheduledInterestPaise: i.interest_paise, scheduledTaxPaise: i.tax_paise })), day);
  const due = instalments.filter((i) => i.due_date <= day).map(owedParts);
  return {
    quote,
    accruedInterestPaise: quote.interestPaise - due.reduce((s, p) => s + p.interestPaise, 0),
    accruedTaxPaise: quote.taxPaise - due.reduce((s, p) => s + (p.taxPaise ?? 0), 0),
  };
}

export function toInstalmentView(i: InstalmentRow, today: string): InstalmentView {
  const outstanding = owed(i);
  const late = outstanding > 0 ? Math.max(0, daysBetween(i.due_date, today)) : 0;
  const status = outstanding === 0 ? 'paid' : late > 0 ? 'overdue' : i.paid_paise > 0 ? 'partial' : 'due';
  return {
    id: i.id, number: i.number, due_date: i.due_date, principal_paise: i.principal_paise, interest_paise: i.interest_paise, tax_paise: i.tax_paise,
    amount_paise: i.amount_paise, penalty_paise: i.penalty_paise, unpaid_penalty_paise: i.penalty_paise - i.paid_penalty_paise, paid_paise: i.paid_paise, outstanding_paise: outstanding,
    status, days_past_due: late, advance: i.advance, paid_at: i.paid_at ? i.paid_at.toISOString() : null,
  };
}

export interface EmiServiceDeps {
  db: Database;
  emi: EmiRepository;
  customers: CustomersService;
  customerRows: CustomersRepository;
  users: UsersRepository;
  orgs: OrgRepository;
  today?: () => string;
  /** Sends the alert to the customer's phone (the device channel); resolves with the command's state. */
  deliverAlert?: (caller: RequestAuth, customerId: number, message: string, alertId: number) => Promise<string>;
  /** Server events (modules/events): open screens hear that a loan's money changed. */
  notify?: Notify;
}

export function createEmiService(deps: EmiServiceDeps) {
  const { db, emi, customers, customerRows } = deps;
  const today = deps.today ?? (() => todayInIndia());
  /** A mini-retailer's figures cover its own customers; a retailer's its whole network. */
  const scope = ownRetailerOf;

  /** A customer with a loan, or NO_LOAN for a phone on a plan alone (decision 023). */
  async function loanCustomer(caller: RequestAuth, customerId: number) {
    const customer = await customers.visible(caller, customerId);
    if (!hasLoan(customer)) throw new AppError('NO_LOAN');
    return customer;
  }

  async function receipt(caller: RequestAuth, paymentId: number): Promise<Receipt> {
    const payment = await emi.payment(caller.accountId, paymentId);
    if (!payment) throw new AppError('NOT_FOUND');
    const customer = await customers.visible(caller, payment.customer_id);
    const retailer = await deps.users.findById(payment.created_by);
    const instalments = await emi.instalments(customer.id);
    return {
      payment_id: payment.id,
      receipt_no: payment.receipt_no,
      kind: payment.kind,
      amount_paise: payment.amount_paise,
      method: payment.method,
      reference: payment.reference,
      note: payment.note,
      created_at: payment.created_at.toISOString(),
      customer: { id: customer.id, name: `${customer.first_name} ${customer.last_name}`, mobile: customer.mobile, imei1: customer.imei1, device: `${customer.device_brand ?? ''} ${customer.device_model ?? ''}`.trim() },
      retailer: { shop_name: retailer?.shop_name ?? null, name: retailer ? `${retailer.first_name} ${retailer.last_name}` : '', mobile: retailer?.mobile ?? '' },
      allocations: (await emi.allocations(payment.id)).map((a) => ({ instalment_number: a.instalment_number, due_date: a.due_date, amount_paise: a.amount_paise, parts: a.parts })),
      outstanding_after_paise: payment.outstanding_after_paise !== null ? Number(payment.outstanding_after_paise) : instalments.reduce((sum, i) => sum + owed(i), 0),
      loan_product: (customer.loan_terms as LoanTermsView | null | undefined)?.product.name ?? null,
    };
  }

  /** The ledger half of a payment, in the caller's transaction: locks the loan, allocates, appends. */
  async function payIn(
    tx: Queryable,
    caller: RequestAuth,
    customerId: number,
    choose: (open: InstalmentRow[], all: InstalmentRow[]) => { targets: InstalmentRow[]; amount: number },
    method: string,
    reference: string | undefined,
    idempotencyKey: string | undefined,
  ): Promise<number> {
    await customerRows.lock(customerId, tx);
    const all = await emi.instalments(customerId, tx, true);
    const open = all.filter((i) => owed(i) > 0).sort(byDueDate);
    const { targets, amount } = choose(open, all);
    return recordSplit(tx, caller, customerId, targets, amount, { method, reference: reference ?? null, note: null, idempotencyKey: idempotencyKey ?? null });
  }

  /** Appends a payment over `targets` (oldest due first), split into parts by the loan product's rule. */
  async function recordSplit(
    tx: Queryable, caller: RequestAuth, customerId: number, targets: InstalmentRow[], amount: number,
    entry: { method: string; reference: string | null; note: string | null; idempotencyKey: string | null },
  ): Promise<number> {
    if (amount > MAX_PAISE) throw new AppError('PAYMENT_TOO_LARGE', { details: [{ field: 'amount_paise', message: `at most ${MAX_PAISE} paise in one payment`, rule: 'amount_too_large' }] });
    const rule = loanSettingsOf(await emi.loanOf(customerId, tx)).allocation;
    // The product's rule settles what is due; what is paid ahead goes to later instalments one at a time, so
    // interest not yet due is never taken before the principal of an earlier instalment.
    const day = today();
    const due = targets.filter((i) => i.due_date <= day);
    const dueShare = due.length > 0 ? allocateByRule(rule, due.map(owedParts), amount) : { allocations: [], unallocatedPaise: amount };
    const later = targets.filter((i) => i.due_date > day);
    const laterShare = later.length > 0 && dueShare.unallocatedPaise > 0
      ? allocateByRule({ ...rule, across: 'instalment' }, later.map(owedParts), dueShare.unallocatedPaise)
      : { allocations: [], unallocatedPaise: dueShare.unallocatedPaise };
    const allocations = [...dueShare.allocations, ...laterShare.allocations];
    const unallocatedPaise = laterShare.unallocatedPaise;
    if (unallocatedPaise > 0) throw new AppError('PAYMENT_TOO_LARGE', { details: [{ field: 'amount_paise', message: `at most ${amount - unallocatedPaise} paise are due`, rule: 'amount_too_large' }] });
    const byNumber = new Map(targets.map((i) => [i.number, i.id]));
    return emi.record(
      { customer_id: customerId, account_id: caller.accountId, kind: 'payment', amount_paise: amount, reverses_id: null, method: entry.method, reference: entry.reference, note: entry.note, created_by: caller.userId, idempotency_key: entry.idempotencyKey },
      allocations.map((a) => {
        const parts = { penalty_paise: a.penaltyPaise, interest_paise: a.interestPaise, tax_paise: a.taxPaise, principal_paise: a.principalPaise };
        return { instalment_id: byNumber.get(a.number)!, amount_paise: a.penaltyPaise + a.interestPaise + a.taxPaise + a.principalPaise, parts };
      }),
      tx,
    );
  }

  /**
   * Appends one payment for the chosen instalments (oldest due first) inside a transaction that locks the
   * loan. A repeated idempotency key returns the first payment's receipt instead of paying twice.
   */
  function pay(
    caller: RequestAuth,
    customerId: number,
    choose: (open: InstalmentRow[], all: InstalmentRow[]) => { targets: InstalmentRow[]; amount: number },
    method: string,
    reference: string | undefined,
    idempotencyKey: string | undefined,
  ): Promise<Receipt> {
    return payOnce(caller, customerId, idempotencyKey, (tx, customer) => payIn(tx, caller, customer.id, choose, method, reference, idempotencyKey));
  }

  /** Runs a payment's transaction once per idempotency key: a repeated key returns the first payment's receipt. */
  async function payOnce(
    caller: RequestAuth,
    customerId: number,
    idempotencyKey: string | undefined,
    work: (tx: Queryable, customer: Awaited<ReturnType<typeof loanCustomer>>) => Promise<number>,
    note: string | null = null,
  ): Promise<Receipt> {
    const customer = await loanCustomer(caller, customerId);
    /**
     * A key names one payment of one customer, of one kind (a payment, or a foreclosure's): the same key for another
     * customer or another kind is refused, not answered with that receipt.
     */
    const sameKeyEarlier = async (): Promise<number | undefined> => {
      const earlier = idempotencyKey ? await emi.paymentByKey(caller.accountId, idempotencyKey) : undefined;
      if (earlier && (earlier.customer_id !== customer.id || earlier.note !== note)) {
        throw new AppError('VALIDATION_FAILED', { details: [{ field: 'idempotency_key', message: 'was used for another payment', rule: 'invalid' }] });
      }
      return earlier?.id;
    };
    const repeated = await sameKeyEarlier();
    if (repeated) return receipt(caller, repeated);
    const paymentId = await db
      .transaction((tx) => work(tx, customer))
      .catch(async (error: unknown) => {
        // The same request twice at once: the second loses the unique index, or (waiting on the loan's lock) finds
        // nothing left to pay or a quote the first one changed; either way it gets the first one's receipt.
        const retried = isUniqueViolation(error) || (error instanceof AppError && (error.code === 'NOTHING_DUE' || error.code === 'QUOTE_CHANGED'));
        const earlier = retried ? await sameKeyEarlier() : undefined;
        if (earlier) return earlier;
        throw error;
      });
    deps.notify?.({ type: 'emi', customer_ids: [customer.id] }); // events
    return receipt(caller, paymentId);
  }

  /** The day the loan was made: its start date, else the day it was enrolled. */
  function disbursedOn(customer: { start_date: string | null; created_at: Date }): string {
    return customer.start_date ?? todayInIndia(customer.created_at);
  }

  function quoteView(customerId: number, day: string, quote: ReturnType<typeof foreclosureQuote>, outstanding: number): ForeclosureQuote {
    return {
      customer_id: customerId, as_of: day, principal_paise: quote.principalPaise, interest_paise: quote.interestPaise, tax_paise: quote.taxPaise,
      penalty_paise: quote.penaltyPaise, fee_paise: quote.feePaise, total_paise: quote.totalPaise, outstanding_paise: outstanding,
      saving_paise: Math.max(0, outstanding - quote.totalPaise),
    };
  }

  async function details(caller: RequestAuth, customerId: number): Promise<EmiDetails> {
    const customer = await loanCustomer(caller, customerId);
    const day = today();
    const instalments = (await emi.instalments(customer.id)).map((i) => toInstalmentView(i, day));
    const sum = (f: (i: InstalmentView) => number) => instalments.reduce((s, i) => s + f(i), 0);
    return {
      customer_id: customer.id,
      emi_paise: customer.emi_paise,
      loan_terms: (customer.loan_terms as EmiDetails['loan_terms'] | null) ?? null,
      instalments,
      totals: {
        payable_paise: sum((i) => i.amount_paise + i.penalty_paise),
        paid_paise: sum((i) => i.paid_paise),
        outstanding_paise: sum((i) => i.outstanding_paise),
        overdue_paise: sum((i) => (i.status === 'overdue' ? i.outstanding_paise : 0)),
      },
    };
  }

  /** Runs a change to a loan's money with the loan locked; a completed loan that owes again is reopened. */
  async function changeLoan<T>(customerId: number, work: (tx: Queryable, instalments: InstalmentRow[]) => Promise<T>): Promise<T> {
    const result = await db
      .transaction(async (tx) => {
        await customerRows.lock(customerId, tx);
        const result = await work(tx, await emi.instalments(customerId, tx, true));
        await customerRows.reopenIfCompleted(customerId, tx);
        return result;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new AppError('IMEI_IN_USE');
        throw error;
      });
    deps.notify?.({ type: 'emi', customer_ids: [customerId] }); // events
    return result;
  }

  return {
    receipt,

    details,

    /**
     * Appends a payment of `amountPaise` (oldest due first) inside the caller's transaction, so whatever the
     * payment settles (a confirmed "I paid" claim) commits with it or not at all. The caller has checked that
     * the customer is theirs, and notifies (`emi`) after commit.
     */
    payOldestFirstIn(tx: Queryable, caller: RequestAuth, customerId: number, amountPaise: number, method: string, reference: string | null, idempotencyKey: string | null): Promise<number> {
      return payIn(tx, caller, customerId, (open) => {
        if (open.length === 0) throw new AppError('NOTHING_DUE');
        return { targets: open, amount: amountPaise };
      }, method, reference ?? undefined, idempotencyKey ?? undefined);
    },

    payOne(caller: RequestAuth, body: PayOneBody): Promise<Receipt> {
      return pay(caller, body.customer_id, (open, all) => {
        if (!all.some((i) => i.id === body.instalment_id)) throw new AppError('NOT_FOUND');
        const target = open.find((i) => i.id === body.instalment_id);
        if (!target) throw new AppError('NOTHING_DUE');
        return { targets: [target], amount: body.amount_paise ?? owed(target) };
      }, body.method, body.reference, body.idempotency_key);
    },

    payMany(caller: RequestAuth, body: PayManyBody): Promise<Receipt> {
      if (!body.instalment_ids && body.amount_paise === undefined) {
        throw new AppError('VALIDATION_FAILED', { details: [{ field: 'instalment_ids', message: 'name the instalments or an amount', rule: 'instalments_or_amount' }] });
      }
      return pay(caller, body.customer_id, (open, all) => {
        if (body.instalment_ids?.some((id) => !all.some((i) => i.id === id))) throw new AppError('NOT_FOUND');
        const targets = body.instalment_ids ? open.filter((i) => body.instalment_ids!.includes(i.id)) : open;
        if (body.instalment_ids && targets.length !== body.instalment_ids.length) throw new AppError('NOTHING_DUE');
        return { targets, amount: body.amount_paise ?? targets.reduce((s, i) => s + owed(i), 0) };
      }, body.method, body.reference, body.idempotency_key);
    },

    /** Undoes one payment with a reversal entry of the same allocations, negated. */
    async reverse(caller: RequestAuth, body: ReverseBody): Promise<Receipt> {
      const original = await emi.payment(caller.accountId, body.payment_id);
      if (!original || original.kind !== 'payment') throw new AppError('NOT_FOUND');
      await customers.visible(caller, original.customer_id);
      // Closing early rewrote the later instalments and charged its fee, and the phone may be released already: undoing
      // the payment alone would leave a loan that owes less interest than it was made with. It stays final.
      if (original.note === FORECLOSURE_NOTE) throw new AppError('FORECLOSURE_FINAL');
      const reversalId = await changeLoan(original.customer_id, async (tx, instalments) => {
        if (await emi.isReversed(original.id, tx)) throw new AppError('ALREADY_REVERSED');
        const allocations = await emi.allocations(original.id, tx);
        const byId = new Map(instalments.map((i) => [i.id, i]));
        return emi.record(
          { customer_id: original.customer_id, account_id: caller.accountId, kind: 'reversal', amount_paise: -original.amount_paise, reverses_id: original.id, method: original.method, reference: original.receipt_no, note: body.reason, created_by: caller.userId },
          allocations.map((a) => ({ instalment_id: a.instalment_id, amount_paise: -a.amount_paise, parts: negate(takeBack(byId.get(a.instalment_id)!, a.amount_paise, a.parts)) })),
          tx,
        );
      });
      return receipt(caller, reversalId);
    },

    async upcoming(caller: RequestAuth, query: UpcomingQuery): Promise<UpcomingList> {
      const day = today();
      const range =
        query.filter === 'overdue' ? { from: null, to: addDays(day, -1) }
        : query.filter === 'today' ? { from: day, to: day }
        : { from: addDays(day, 1), to: addDays(day, query.days) };
      const { items, total } = await emi.upcoming(caller.accountId, scope(caller), range, { limit: query.limit, offset: (query.page - 1) * query.limit });
      return { items, total, page: query.page, limit: query.limit };
    },

    async upcomingCounts(caller: RequestAuth, days: number): Promise<UpcomingCounts> {
      const day = today();
      return { ...(await emi.upcomingCounts(caller.accountId, scope(caller), day, addDays(day, days))), days };
    },

    /** A manual penalty on an instalment, recorded in an append-only table. */
    async addPenalty(caller: RequestAuth, body: PenaltyBody): Promise<EmiDetails> {
      const customer = await loanCustomer(caller, body.customer_id);
      await changeLoan(customer.id, async (tx, instalments) => {
        const target = instalments.find((i) => i.id === body.instalment_id);
        if (!target) throw new AppError('NOT_FOUND');
        if (owed(target) === 0) throw new AppError('NOTHING_DUE');
        await emi.addPenalty({ customer_id: customer.id, instalment_id: target.id, account_id: caller.accountId, amount_paise: body.amount_paise, reason: body.reason, created_by: caller.userId }, tx);
      });
      return details(caller, customer.id);
    },

    /** Moves the due date or changes the amount of an instalment that is not fully paid; never below what was paid. */
    async editInstalment(caller: RequestAuth, body: EditInstalmentBody): Promise<EmiDetails> {
      const customer = await loanCustomer(caller, body.customer_id);
      await changeLoan(customer.id, async (tx, instalments) => {
        const target = instalments.find((i) => i.id === body.instalment_id);
        if (!target) throw new AppError('NOT_FOUND');
        if (owed(target) === 0) throw new AppError('NOTHING_DUE');
        if (body.amount_paise !== undefined && body.amount_paise + target.penalty_paise < target.paid_paise) {
          throw new AppError('VALIDATION_FAILED', { details: [{ field: 'amount_paise', message: `cannot be below the ${target.paid_paise} paise already paid`, rule: 'below_paid' }] });
        }
        await emi.editInstalment(target.id, { ...(body.due_date ? { due_date: body.due_date } : {}), ...(body.amount_paise !== undefined ? { amount_paise: body.amount_paise } : {}) }, tx);
        await emi.addChange({
          customer_id: customer.id, instalment_id: target.id, account_id: caller.accountId, kind: 'edit', before: fieldsOf(target),
          after: { ...fieldsOf(target), due_date: body.due_date ?? target.due_date, amount_paise: body.amount_paise ?? target.amount_paise },
          reason: body.reason ?? null, created_by: caller.userId,
        }, tx);
      });
      return details(caller, customer.id);
    },

    async addInstalment(caller: RequestAuth, body: AddInstalmentBody): Promise<EmiDetails> {
      const customer = await loanCustomer(caller, body.customer_id);
      await changeLoan(customer.id, async (tx) => {
        const id = await emi.addInstalment(customer.id, caller.accountId, body.due_date, body.amount_paise, tx);
        await emi.addChange({
          customer_id: customer.id, instalment_id: id, account_id: caller.accountId, kind: 'add', before: null,
          after: { due_date: body.due_date, amount_paise: body.amount_paise, penalty_paise: 0 }, reason: body.reason ?? null, created_by: caller.userId,
        }, tx);
      });
      return details(caller, customer.id);
    },

    /**
     * Waives part or all of an instalment's unpaid penalty (RBI's 2023 rules on penal charges), when the caller's
     * penalty_waiver switch allows it: an appended waiver with its reason, and a record of the change.
     */
    async waivePenalty(caller: RequestAuth, body: WaiveBody): Promise<EmiDetails> {
      if (caller.userAccess.penalty_waiver !== '1') throw new AppError('ACCESS_DENIED');
      const customer = await loanCustomer(caller, body.customer_id);
      await changeLoan(customer.id, async (tx, instalments) => {
        const target = instalments.find((i) => i.id === body.instalment_id);
        if (!target) throw new AppError('NOT_FOUND');
        const unpaid = target.penalty_paise - target.paid_penalty_paise;
        if (unpaid <= 0) throw new AppError('NOTHING_DUE');
        const amount = body.amount_paise ?? unpaid;
        if (amount > unpaid) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'amount_paise', message: `at most ${unpaid} paise of penalty are unpaid`, rule: 'amount_too_large' }] });
        await emi.waive({ customer_id: customer.id, instalment_id: target.id, account_id: caller.accountId, amount_paise: amount, reason: body.reason, created_by: caller.userId }, tx);
        await emi.addChange({
          customer_id: customer.id, instalment_id: target.id, account_id: caller.accountId, kind: 'waiver', before: fieldsOf(target),
          after: { ...fieldsOf(target), penalty_paise: target.penalty_paise - amount }, reason: body.reason, created_by: caller.userId,
        }, tx);
      });
      return details(caller, customer.id);
    },

    /** The loan's schedule changes, newest first: edits, added instalments, waivers, foreclosure. */
    async changes(caller: RequestAuth, customerId: number): Promise<InstalmentChange[]> {
      const customer = await loanCustomer(caller, customerId);
      return (await emi.changes(customer.id)).reverse().map((c) => ({
        id: c.id, kind: c.kind, instalment_number: c.instalment_number, before: c.before, after: c.after, reason: c.reason, by: c.by, at: c.created_at.toISOString(),
      }));
    },

    /**
     * Every due, charge, waiver, payment, reversal and change of the loan in date order, with the balance after
     * each. A due line is the instalment as it was made (its amount now less the recorded changes to it), so the
     * lines add up to what is owed.
     */
    async statement(caller: RequestAuth, customerId: number): Promise<Statement> {
      const customer = await loanCustomer(caller, customerId);
      // One snapshot: a payment committing between the reads would otherwise leave the balance apart from what is owed.
      const { instalments, ledger, changes } = await db.transaction(async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        return { instalments: await emi.instalments(customer.id, tx), ledger: await emi.ledger(customer.id, tx), changes: await emi.changes(customer.id, tx) };
      });
      const numberOf = new Map(instalments.map((i) => [i.id, i.number]));
      const amountChanges = changes.filter((c) => c.before !== null && c.before.amount_paise !== c.after.amount_paise);
      const changedBy = new Map<number, number>();
      for (const c of amountChanges) changedBy.set(c.instalment_id, (changedBy.get(c.instalment_id) ?? 0) + c.after.amount_paise - c.before!.amount_paise);
      // Each event with what the contract's line adds to it; due lines lead their day, the rest follow in the order they happened.
      const events: Array<{ event: StatementEvent; at: number; line: Pick<StatementLine, 'instalment_number' | 'payment_id' | 'receipt_no' | 'reason' | 'parts'> }> = [];
      const none = { payment_id: null, receipt_no: null, parts: null };
      // A loan closed early brings every instalment it had then and not yet due (paid ahead or not) due on the day it
      // closed: listed that day before the changes and the payment that closed it, the balance is 0 after it. An
      // instalment added later (the loan reopened) falls due on its own date, or on a later closing day.
      const closings = changes.filter((c) => c.kind === 'foreclosure').map((c) => ({ day: todayInIndia(c.created_at), at: c.created_at.getTime() })).sort((a, b) => a.at - b.at);
      const addedAt = new Map(changes.filter((c) => c.kind === 'add').map((c) => [c.instalment_id, c.created_at.getTime()]));
      for (const i of instalments) {
        const added = addedAt.get(i.id) ?? -Infinity;
        const date = closings.find((c) => c.day < i.due_date && c.at >= added)?.day ?? i.due_date;
        events.push({ event: { kind: 'due', date, number: i.number, amountPaise: i.amount_paise - (changedBy.get(i.id) ?? 0) }, at: 0, line: { ...none, instalment_number: i.number, reason: null } });
      }
      for (const p of ledger.penalties) {
        events.push({ event: { kind: 'penalty', date: p.day, number: numberOf.get(p.instalment_id)!, amountPaise: Number(p.amount_paise), reason: p.reason }, at: p.at.getTime(), line: { ...none, instalment_number: numberOf.get(p.instalment_id)!, reason: p.reason } });
      }
      for (const w of ledger.waivers) {
        events.push({ event: { kind: 'waiver', date: w.day, number: numberOf.get(w.instalment_id)!, amountPaise: Number(w.amount_paise), reason: w.reason }, at: w.at.getTime(), line: { ...none, instalment_number: numberOf.get(w.instalment_id)!, reason: w.reason } });
      }
      for (const c of amountChanges) {
        events.push({
          event: { kind: 'edit', date: todayInIndia(c.created_at), number: c.instalment_number, beforePaise: c.before!.amount_paise, afterPaise: c.after.amount_paise, reason: c.reason ?? '' },
          at: c.created_at.getTime(), line: { ...none, instalment_number: c.instalment_number, reason: c.reason },
        });
      }
      for (const p of ledger.payments) {
        const parts = p.split ? { penalty_paise: Number(p.penalty_paise), interest_paise: Number(p.interest_paise), tax_paise: Number(p.tax_paise), principal_paise: Number(p.principal_paise) } : null;
        const amount = Math.abs(Number(p.amount_paise));
        const event: StatementEvent = p.kind === 'payment'
          ? { kind: 'payment', date: p.day, id: String(p.id), amountPaise: amount, allocations: [] }
          : { kind: 'reversal', date: p.day, id: String(p.id), amountPaise: amount };
        events.push({ event, at: p.at.getTime(), line: { instalment_number: null, payment_id: p.id, receipt_no: p.receipt_no, reason: p.kind === 'reversal' ? p.note : null, parts } });
      }
      events.sort((a, b) => (a.event.date < b.event.date ? -1 : a.event.date > b.event.date ? 1 : a.at - b.at));
      const built = buildStatement(events.map((e) => e.event));
      const outstanding = instalments.reduce((s, i) => s + owed(i), 0);
      const sum = (f: (i: InstalmentRow) => number) => instalments.reduce((s, i) => s + f(i), 0);
      return {
        customer_id: customer.id,
        lines: built.lines.map((l, n) => ({ date: l.date, kind: l.kind, delta_paise: l.deltaPaise, balance_after_paise: l.balanceAfterPaise, ...events[n]!.line })),
        balance_paise: built.balancePaise,
        outstanding_paise: outstanding,
        paid_parts: { penalty_paise: sum((i) => i.paid_penalty_paise), interest_paise: sum((i) => i.paid_interest_paise), tax_paise: sum((i) => i.paid_tax_paise), principal_paise: sum((i) => i.paid_principal_paise) },
      };
    },

    /** The amount that closes the loan today, by its product's rule. */
    async foreclosureQuote(caller: RequestAuth, customerId: number): Promise<ForeclosureQuote> {
      const customer = await loanCustomer(caller, customerId);
      const instalments = await emi.instalments(customer.id);
      const outstanding = instalments.reduce((s, i) => s + owed(i), 0);
      if (outstanding === 0) throw new AppError('NOTHING_DUE');
      const day = today();
      const { quote } = quoteOf(loanSettingsOf(customer), disbursedOn(customer), instalments, day);
      return quoteView(customer.id, day, quote, outstanding);
    },

    /**
     * Closes the loan today for its quote, which the caller sends as it was shown (a quote that has changed is
     * refused): the periods not yet due keep their principal and only the interest accrued so far, the product's
     * fee is charged, and one payment settles everything. The loan then owes nothing, as after a final payment,
     * so its phone can be released.
     */
    foreclose(caller: RequestAuth, body: ForecloseBody): Promise<Receipt> {
      return payOnce(caller, body.customer_id, body.idempotency_key, async (tx, customer) => {
        await customerRows.lock(customer.id, tx);
        const instalments = (await emi.instalments(customer.id, tx, true)).sort(byDueDate);
        if (instalments.every((i) => owed(i) === 0)) throw new AppError('NOTHING_DUE');
        const day = today();
        const { quote, accruedInterestPaise, accruedTaxPaise } = quoteOf(loanSettingsOf(customer), disbursedOn(customer), instalments, day);
        if (quote.totalPaise !== body.amount_paise) throw new AppError('QUOTE_CHANGED');
        const later = instalments.filter((i) => i.due_date > day);
        // The current period keeps the interest accrued to today; later periods keep only what was already paid of
        // theirs. Interest paid ahead beyond that (the quote's paidAheadPaise) is credited as principal: taken off the
        // principal still owed, from the last instalment back.
        const parts = new Map(later.map((i, n) => [i.id, {
          interest_paise: i.paid_interest_paise + (n === 0 ? accruedInterestPaise : 0),
          tax_paise: i.paid_tax_paise + (n === 0 ? accruedTaxPaise : 0),
          principal_paise: i.principal_paise,
        }]));
        let credit = quote.paidAheadPaise;
        for (const i of [...instalments].reverse()) {
          if (credit === 0) break;
          const current = parts.get(i.id) ?? { interest_paise: i.interest_paise, tax_paise: i.tax_paise, principal_paise: i.principal_paise };
          const take = Math.min(credit, current.principal_paise - i.paid_principal_paise);
          if (take <= 0) continue;
          parts.set(i.id, { ...current, principal_paise: current.principal_paise - take });
          credit -= take;
        }
        for (const i of instalments) {
          const next = parts.get(i.id);
          if (!next || (next.interest_paise === i.interest_paise && next.tax_paise === i.tax_paise && next.principal_paise === i.principal_paise)) continue;
          await emi.setParts(i.id, next, tx);
          await emi.addChange({
            customer_id: customer.id, instalment_id: i.id, account_id: caller.accountId, kind: 'foreclosure', before: fieldsOf(i),
            after: { ...fieldsOf(i), amount_paise: next.principal_paise + next.interest_paise + next.tax_paise }, reason: null, created_by: caller.userId,
          }, tx);
        }
        if (quote.feePaise > 0) {
          const on = later[0] ?? instalments[instalments.length - 1]!;
          await emi.addPenalty({ customer_id: customer.id, instalment_id: on.id, account_id: caller.accountId, amount_paise: quote.feePaise, reason: FORECLOSURE_FEE_REASON, created_by: caller.userId }, tx);
        }
        const rewritten = (await emi.instalments(customer.id, tx)).sort(byDueDate);
        const owes = rewritten.reduce((s, i) => s + owed(i), 0);
        if (owes !== quote.totalPaise) throw new Error(`foreclosure of customer ${customer.id}: ${owes} paise owed after the rewrite, quote ${quote.totalPaise}`);
        return recordSplit(tx, caller, customer.id, rewritten.filter((i) => owed(i) > 0), quote.totalPaise, {
          method: body.method, reference: body.reference ?? null, note: FORECLOSURE_NOTE, idempotencyKey: body.idempotency_key ?? null,
        });
      }, FORECLOSURE_NOTE);
    },

    /** Records an EMI alert for the customer's phone; the device channel delivers queued alerts. */
    async sendAlert(caller: RequestAuth, body: AlertBody): Promise<Alert> {
      const customer = await loanCustomer(caller, body.customer_id);
      const due = (await emi.instalments(customer.id)).filter((i) => owed(i) > 0 && i.due_date <= today()).reduce((s, i) => s + owed(i), 0);
      const message = body.message ?? translate(isLanguage(customer.language) ? customer.language : FALLBACK_LANGUAGE, 'emiAlert.defaultText',
        'Your EMI is due. Please pay your retailer to keep using your phone without interruption.');
      const row = await emi.queueAlert({ customer_id: customer.id, account_id: caller.accountId, message, amount_paise: due, created_by: caller.userId });
      let status = row.status;
      if (deps.deliverAlert) {
        try {
          status = await deps.deliverAlert(caller, customer.id, message, row.id);
        } catch (error) {
          // No phone yet, or the phone does not take alerts now: the alert stays queued.
          if (!(error instanceof AppError) || !['DEVICE_NOT_ENROLLED', 'ACTION_NOT_ALLOWED', 'ACCESS_DENIED'].includes(error.code)) throw error;
        }
      }
      return { id: row.id, customer_id: customer.id, message, amount_paise: due, status, created_at: row.created_at.toISOString() };
    },

    /** The customer's payments and reversals, newest first, to reopen their receipts. */
    async payments(caller: RequestAuth, customerId: number): Promise<PaymentItem[]> {
      const customer = await customers.visible(caller, customerId);
      return (await emi.payments(customer.id)).map((p) => ({ ...p, created_at: p.created_at.toISOString() }));
    },

    async alerts(caller: RequestAuth, customerId: number): Promise<Alert[]> {
      const customer = await customers.visible(caller, customerId);
      return (await emi.alerts(customer.id)).map((a) => ({ ...a, created_at: a.created_at.toISOString() }));
    },

    /** Behind the organisation's outstanding-amount switch, off by default. */
    async totalOutstanding(caller: RequestAuth): Promise<Outstanding> {
      const org = await deps.orgs.findById(caller.orgId);
      if (!org?.features.outstanding_amount) throw new AppError('FEATURE_OFF');
      return emi.outstanding(caller.accountId, scope(caller), today());
    },
  };
}
export type EmiService = ReturnType<typeof createEmiService>;
