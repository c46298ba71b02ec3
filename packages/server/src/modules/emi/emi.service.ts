/**
 * Collecting instalments. Every payment is appended to the ledger with its allocations (oldest due first
 * unless the retailer picks instalments) and gets a receipt; a correction is a reversal entry that undoes
 * one payment's allocations. A payment never exceeds what is owed.
 */
import { allocatePayment } from '@kisht/domain/emi';
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
import type { AddInstalmentBody, Alert, AlertBody, EditInstalmentBody, EmiDetails, InstalmentView, Outstanding, PayManyBody, PayOneBody, PaymentItem, PenaltyBody, Receipt, ReverseBody, UpcomingCounts, UpcomingList, UpcomingQuery } from '@kisht/contract/emi';
import type { CustomersService } from '../customers/customers.service.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { OrgRepository } from '../config/org.repository.ts';
import type { EmiRepository, InstalmentRow } from './emi.repository.ts';
import type { Notify } from '../events/events.bus.ts';

const owed = (i: InstalmentRow) => i.amount_paise + i.penalty_paise - i.paid_paise;

export function toInstalmentView(i: InstalmentRow, today: string): InstalmentView {
  const outstanding = owed(i);
  const late = outstanding > 0 ? Math.max(0, daysBetween(i.due_date, today)) : 0;
  const status = outstanding === 0 ? 'paid' : late > 0 ? 'overdue' : i.paid_paise > 0 ? 'partial' : 'due';
  return {
    id: i.id, number: i.number, due_date: i.due_date, principal_paise: i.principal_paise, interest_paise: i.interest_paise, tax_paise: i.tax_paise,
    amount_paise: i.amount_paise, penalty_paise: i.penalty_paise, paid_paise: i.paid_paise, outstanding_paise: outstanding,
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
      allocations: (await emi.allocations(payment.id)).map((a) => ({ instalment_number: a.instalment_number, due_date: a.due_date, amount_paise: a.amount_paise })),
      outstanding_after_paise: payment.outstanding_after_paise !== null ? Number(payment.outstanding_after_paise) : instalments.reduce((sum, i) => sum + owed(i), 0),
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
    const open = all.filter((i) => owed(i) > 0).sort((a, b) => (a.due_date === b.due_date ? a.number - b.number : a.due_date < b.due_date ? -1 : 1));
    const { targets, amount } = choose(open, all);
    if (amount > MAX_PAISE) throw new AppError('PAYMENT_TOO_LARGE', { details: [{ field: 'amount_paise', message: `at most ${MAX_PAISE} paise in one payment`, rule: 'amount_too_large' }] });
    const { allocations, unallocatedPaise } = allocatePayment(targets.map((i) => ({ number: i.number, duePaise: owed(i) })), amount);
    if (unallocatedPaise > 0) throw new AppError('PAYMENT_TOO_LARGE', { details: [{ field: 'amount_paise', message: `at most ${amount - unallocatedPaise} paise are due`, rule: 'amount_too_large' }] });
    const byNumber = new Map(targets.map((i) => [i.number, i.id]));
    return emi.record(
      { customer_id: customerId, account_id: caller.accountId, kind: 'payment', amount_paise: amount, reverses_id: null, method, reference: reference ?? null, note: null, created_by: caller.userId, idempotency_key: idempotencyKey ?? null },
      allocations.map((a) => ({ instalment_id: byNumber.get(a.number)!, amount_paise: a.paidPaise })),
      tx,
    );
  }

  /**
   * Appends one payment for the chosen instalments (oldest due first) inside a transaction that locks the
   * loan. A repeated idempotency key returns the first payment's receipt instead of paying twice.
   */
  async function pay(
    caller: RequestAuth,
    customerId: number,
    choose: (open: InstalmentRow[], all: InstalmentRow[]) => { targets: InstalmentRow[]; amount: number },
    method: string,
    reference: string | undefined,
    idempotencyKey: string | undefined,
  ): Promise<Receipt> {
    const customer = await loanCustomer(caller, customerId);
    /** A key names one payment of one customer: the same key for another customer is refused, not answered with that receipt. */
    const sameKeyEarlier = async (): Promise<number | undefined> => {
      const earlier = idempotencyKey ? await emi.paymentByKey(caller.accountId, idempotencyKey) : undefined;
      if (earlier && earlier.customer_id !== customer.id) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'idempotency_key', message: 'was used for another payment', rule: 'invalid' }] });
      return earlier?.id;
    };
    const repeated = await sameKeyEarlier();
    if (repeated) return receipt(caller, repeated);
    const paymentId = await db
      .transaction((tx) => payIn(tx, caller, customer.id, choose, method, reference, idempotencyKey))
      .catch(async (error: unknown) => {
        // Two requests with the same key at once: the second loses the unique index and gets the first's receipt.
        const earlier = isUniqueViolation(error) ? await sameKeyEarlier() : undefined;
        if (earlier) return earlier;
        throw error;
      });
    deps.notify?.({ type: 'emi', customer_ids: [customer.id] }); // events
    return receipt(caller, paymentId);
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
      const reversalId = await changeLoan(original.customer_id, async (tx) => {
        if (await emi.isReversed(original.id, tx)) throw new AppError('ALREADY_REVERSED');
        const allocations = await emi.allocations(original.id, tx);
        return emi.record(
          { customer_id: original.customer_id, account_id: caller.accountId, kind: 'reversal', amount_paise: -original.amount_paise, reverses_id: original.id, method: original.method, reference: original.receipt_no, note: body.reason, created_by: caller.userId },
          allocations.map((a) => ({ instalment_id: a.instalment_id, amount_paise: -a.amount_paise })),
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
      });
      return details(caller, customer.id);
    },

    async addInstalment(caller: RequestAuth, body: AddInstalmentBody): Promise<EmiDetails> {
      const customer = await loanCustomer(caller, body.customer_id);
      await changeLoan(customer.id, async (tx) => {
        await emi.addInstalment(customer.id, caller.accountId, body.due_date, body.amount_paise, tx);
      });
      return details(caller, customer.id);
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
