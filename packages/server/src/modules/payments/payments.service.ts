/**
 * Payments through a gateway (decision 015): orders for a customer's dues and for a retailer's keys, the
 * gateway's signed events stored before they are answered and applied by a worker from that table, and a
 * reconciliation job that asks the gateway about orders still pending. An event is applied once in one
 * transaction, against our order's amount and currency, never the callback's.
 */
import { createHash, randomBytes } from 'node:crypto';
import { todayInIndia } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { isLanguage, FALLBACK_LANGUAGE, type LockAccess, type UserAccess } from '@kisht/domain/constants';
import { MAX_PAISE } from '@kisht/contract/customers';
import type { CustomerOrderBody, HeldOrderBody, KeyOrderBody, KeyQuote, KeyQuoteBody, PaymentOrderList, PaymentOrderView } from '@kisht/contract/payments';
import type { Database, Queryable } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { translate } from '../../shared/messages.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import { ownRetailerOf } from '../customers/customers.repository.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { NetworkRepository } from '../network/network.repository.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { createNotificationsRepository } from '../notifications/notifications.repository.ts';
import type { Notify } from '../events/events.bus.ts';
import type { GatewayEvent, GatewayOrderRequest, PaymentGateway } from '../../providers/payments/payment-gateway.ts';
import type { EventRow, NewOrder, OrderListRow, OrderRow, PaymentsRepository } from './payments.repository.ts';

/** Orders a page of the list holds. */
const PAGE_SIZE = 20;
/** Events whose id starts so were written by reconciliation, in our own shape (a GatewayEvent). */
const RECONCILED = 'recon:';

export interface PaymentsConfig {
  /** How long an order may be paid. */
  orderMinutes: number;
  /** Orders pending this long are asked of the gateway. */
  reconcileAfterMinutes: number;
  /** Whether this node applies events (a node may only receive them; another applies them from the table). */
  applyEvents: boolean;
}

export interface PaymentsServiceDeps {
  db: Database;
  payments: PaymentsRepository;
  /** Null: no gateway configured on this server; every order answers GATEWAY_NOT_CONFIGURED. */
  gateway: PaymentGateway | null;
  customers: CustomersService;
  network: NetworkRepository;
  users: UsersRepository;
  /** The EMI ledger's payment, inside our transaction (emi.service: the same allocation and receipt as a retailer's). */
  payInLedger: (tx: Queryable, caller: RequestAuth, customerId: number, amountPaise: number, method: string, reference: string | null, idempotencyKey: string | null) => Promise<number>;
  /** Unlocks these customers' phones where the dues policy locked them and nothing is overdue now (device-policies). */
  unlockPaid: (customerIds: readonly number[]) => Promise<unknown>;
  sms: { enqueue(message: { to: string; body: string; purpose: string }, deliver: boolean, tx: Queryable): Promise<void>; afterEnqueue(): Promise<void> };
  notify?: Notify;
  config: PaymentsConfig;
  log: (message: string, error?: unknown) => void;
  today?: () => string;
}

interface CustomerForOrder { id: number; org_id: number; account_id: number; retailer_id: number; first_name: string; last_name: string; mobile: string; language: string | null }

/** Our order ids: the reference the payer's app and the gateway carry back (20 random base62 characters). */
function newOrderId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(40);
  let id = '';
  // Rejection sampling keeps every character equally likely (62 does not divide 256).
  for (const b of bytes) if (b < 248 && id.length < 20) id += alphabet[b % 62];
  return id.length === 20 ? `po_${id}` : newOrderId();
}

/** The key transfer a key order credits, derived from the order: applying it twice would meet the same id. */
function transferIdOf(orderId: string): string {
  const h = createHash('sha256').update(`kisht-key-order:${orderId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const toView = (row: OrderListRow): PaymentOrderView => ({
  id: row.id,
  purpose: row.purpose,
  status: row.status,
  amount_paise: row.amount_paise,
  currency: row.currency,
  customer_id: row.customer_id,
  customer_name: row.customer_name,
  product_type: row.product_type,
  quantity: row.quantity,
  // Where to pay only while paying is possible.
  upi_link: row.status === 'pending' ? row.upi_link : null,
  short_url: row.status === 'pending' ? row.short_url : null,
  receipt_no: row.receipt_no,
  held_reason: row.held_reason,
  received_paise: row.received_paise,
  received_currency: row.received_currency,
  resolved_at: row.resolved_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  paid_at: row.paid_at?.toISOString() ?? null,
  expires_at: row.expires_at.toISOString(),
});

const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', { details: [{ field, message, rule: 'required' }] });

/** What applying one event did, for the work after commit. */
interface Applied { outcome: string; order: OrderRow | null; credited: boolean; told?: number[] }

export function createPaymentsService(deps: PaymentsServiceDeps) {
  const { db, payments, gateway, network, users, log } = deps;
  const notices = createNotificationsRepository(db);
  const today = deps.today ?? (() => todayInIndia());

  async function view(id: string): Promise<PaymentOrderView> {
    const row = await payments.view(id);
    if (!row) throw new AppError('NOT_FOUND');
    return toView(row);
  }

  /** The gateway, when this server has one and the organisation's payment-gateway switch is on. */
  async function gatewayFor(orgId: number): Promise<PaymentGateway> {
    if (!gateway) throw new AppError('GATEWAY_NOT_CONFIGURED');
    const org = await payments.orgSettings(orgId);
    if (!org?.gateway_on) throw new AppError('GATEWAY_NOT_CONFIGURED');
    return gateway;
  }

  /**
   * Writes the order, then asks the gateway to open it. The row comes first so a retried request (same
   * idempotency key) finds it, and so any payment the gateway reports names an order we hold. A gateway that
   * refuses leaves the order failed and the caller SERVICE_UNAVAILABLE.
   */
  async function open(pg: PaymentGateway, order: NewOrder, request: Omit<GatewayOrderRequest, 'reference' | 'amountPaise' | 'currency' | 'expiresAt'>, same: (earlier: OrderRow) => boolean, afterOpen?: (row: OrderListRow) => Promise<void>): Promise<PaymentOrderView> {
    const { row, fresh } = await payments.claimOrder(order);
    if (!fresh) {
      if (!same(row)) throw new AppError('ORDER_KEY_REUSED');
      return view(row.id);
    }
    try {
      const opened = await pg.createOrder({ ...request, reference: row.id, amountPaise: row.amount_paise, currency: 'INR', expiresAt: row.expires_at });
      await payments.opened(row.id, opened);
    } catch (error) {
      log('the payment gateway did not open an order', error);
      await payments.openFailed(row.id);
      orderMoved(row);
      throw new AppError('SERVICE_UNAVAILABLE');
    }
    const written = (await payments.view(row.id))!;
    if (afterOpen) await afterOpen(written);
    orderMoved(row);
    return toView(written);
  }

  async function customerOrder(customer: CustomerForOrder, opts: { createdBy: number | null; amountPaise?: number; idempotencyKey?: string; sendSms?: boolean }): Promise<PaymentOrderView> {
    const pg = await gatewayFor(customer.org_id);
    const owed = await payments.owed(customer.id, today());
    const amount = opts.amountPaise ?? owed.now;
    if (amount <= 0 || owed.total <= 0) throw new AppError('NOTHING_DUE');
    // More than the loan can take would only be held for a refund once paid: refused before anyone pays.
    if (amount > Math.min(owed.total, MAX_PAISE)) throw new AppError('PAYMENT_TOO_LARGE');
    // The phone's "Pay now" pressed again gets the link it already has, not a new one at the gateway each time.
    if (opts.createdBy === null) {
      const earlier = await payments.openPhoneOrder(customer.id, amount);
      if (earlier) return view(earlier.id);
    }
    const name = `${customer.first_name} ${customer.last_name}`;
    return open(pg, {
      id: newOrderId(), org_id: customer.org_id, account_id: customer.account_id, retailer_id: customer.retailer_id, purpose: 'emi', customer_id: customer.id,
      product_type: null, quantity: null, seller_id: null, unit_price_paise: null, amount_paise: amount, gateway: pg.name,
      caller: opts.createdBy === null ? `c${customer.id}` : `u${opts.createdBy}`, idempotency_key: opts.idempotencyKey ?? null, created_by: opts.createdBy,
      expires_at: new Date(Date.now() + deps.config.orderMinutes * 60_000),
    }, { description: `EMI ${name}`, customer: { name, mobile: customer.mobile } },
    (earlier) => earlier.purpose === 'emi' && earlier.customer_id === customer.id && (opts.amountPaise === undefined || earlier.amount_paise === opts.amountPaise),
    opts.sendSms ? async (row) => {
      if (!row.short_url) return;
      const lng = isLanguage(customer.language) ? customer.language : FALLBACK_LANGUAGE;
      const amountText = formatRupees(row.amount_paise);
      const body = translate(lng, 'payments.linkSms', `Pay your EMI of ${amountText}: ${row.short_url}`, { amount: amountText, link: row.short_url });
      await db.transaction((tx) => deps.sms.enqueue({ to: customer.mobile, body, purpose: 'payment_link' }, true, tx));
      await deps.sms.afterEnqueue();
    } : undefined);
  }

  async function customerRow(id: number): Promise<CustomerForOrder> {
    const row = (await db.query<CustomerForOrder>(
      'SELECT id, org_id, account_id, retailer_id, first_name, last_name, mobile, language FROM customers WHERE id = $1',
      [id],
    )).rows[0];
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** The caller's price for keys: its parent's price, or the operator's list price at the top of the network. */
  async function quoteFor(caller: RequestAuth, body: KeyQuoteBody, q: Queryable = db): Promise<KeyQuote & { org_id: number; buyer_id: number }> {
    const me = await network.node(caller.userId, q);
    if (!me) throw new AppError('NOT_FOUND');
    const unit = me.parent_id === null ? await payments.operatorPrice(me.org_id, body.product_type, q) : await network.priceOf(me.parent_id, body.product_type, q);
    if (unit === null) throw new AppError('PRICE_UNAVAILABLE');
    const amount = unit * body.quantity;
    if (amount > MAX_PAISE) throw new AppError('PAYMENT_TOO_LARGE');
    let sellerName: string;
    if (me.parent_id === null) sellerName = (await q.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [me.org_id])).rows[0]?.name ?? '';
    else {
      const seller = await users.findById(me.parent_id, q);
      sellerName = seller?.shop_name || `${seller?.first_name ?? ''} ${seller?.last_name ?? ''}`.trim();
    }
    return { product_type: body.product_type, quantity: body.quantity, unit_price_paise: unit, amount_paise: amount, seller_id: me.parent_id, seller_name: sellerName, org_id: me.org_id, buyer_id: me.id };
  }

  /** The customer's loan takes the payment through the EMI ledger, as the system on the retailer's behalf. */
  function systemCaller(order: OrderRow): RequestAuth {
    return {
      userId: order.retailer_id, accountId: order.account_id, orgId: order.org_id, sessionId: 'payment-gateway', userType: 'retailer',
      userAccess: {} as UserAccess, lockAccess: {} as LockAccess,
    };
  }

  /** Reads a stored event: the gateway's own body, or what reconciliation learnt (already in our shape). */
  function readEvent(row: EventRow): GatewayEvent | null {
    if (row.event_id.startsWith(RECONCILED)) return JSON.parse(row.body) as GatewayEvent;
    return gateway ? gateway.parseEvent(row.body) : null;
  }

  /** Credits what a paid order bought, in the event's transaction; a reason to hold it instead, or null. */
  async function credit(order: OrderRow, paymentId: string, tx: Queryable): Promise<{ held: string | null; paymentRow?: number; transferId?: string }> {
    if (order.purpose === 'emi') {
      try {
        const id = await deps.payInLedger(tx, systemCaller(order), order.customer_id!, order.amount_paise, 'upi', paymentId, null);
        return { held: null, paymentRow: id };
      } catch (error) {
        // Paid by hand meanwhile, or the loan changed: the money is ours but the loan cannot take it all.
        if (error instanceof AppError && (error.code === 'PAYMENT_TOO_LARGE' || error.code === 'NOTHING_DUE')) return { held: 'EXCEEDS_DUE' };
        throw error;
      }
    }
    // Keys: the seller's stock is locked and checked first, so a seller out of keys holds the order (for a
    // refund or a top-up) instead of failing the event forever.
    if (order.seller_id !== null) {
      const stock = (await tx.query<{ balance: number }>('SELECT balance FROM license_balances WHERE user_id = $1 AND product_type = $2 FOR UPDATE', [order.seller_id, order.product_type])).rows[0];
      if (!stock || stock.balance < order.quantity!) return { held: 'SELLER_OUT_OF_KEYS' };
    }
    const { row, fresh } = await network.claimTransfer({
      id: transferIdOf(order.id), kind: order.seller_id === null ? 'topup' : 'request', state: 'done', product_type: order.product_type!, quantity: order.quantity!,
      from_user_id: order.seller_id, to_user_id: order.retailer_id, price_paise: order.unit_price_paise, note: `Paid online (${order.id})`, created_by: order.retailer_id,
    }, tx);
    if (fresh && !(await network.move(row, tx))) throw new Error(`key order ${order.id}: the seller's stock moved under its lock`);
    return { held: null, transferId: row.id };
  }

  /** Open screens hear of an order that moved: its customer's, or for a key order the sessions listing that retailer's orders. */
  function orderMoved(order: Pick<OrderRow, 'customer_id' | 'account_id' | 'retailer_id'>): void {
    deps.notify?.(order.customer_id !== null
      ? { type: 'payment', customer_ids: [order.customer_id] }
      : { type: 'key_order', account_id: order.account_id, retailer_id: order.retailer_id });
  }

  /** Applies one stored event in the caller's transaction. Any order of events, any number of repeats, credits once. */
  async function apply(row: EventRow, tx: Queryable): Promise<Applied> {
    const done = async (outcome: string, order: OrderRow | null, appliedPaymentId: string | null = null, credited = false): Promise<Applied> => {
      await payments.eventApplied(row.id, outcome, order?.id ?? null, appliedPaymentId, tx);
      return { outcome, order, credited };
    };
    const event = readEvent(row);
    if (!event) return done('unreadable', null);
    const order = await payments.findForEvent(event.refs, row.gateway, tx);
    if (!order) return done('unknown_order', null);
    if (event.status === null || !event.payment) return done('noted', order);
    const payment = event.payment;
    // Seen already (the same payment told by payment.captured, order.paid, payment_link.paid, reconciliation).
    if (order.gateway_payment_id === payment.id) return done('duplicate', order);
    if (event.status === 'authorized') return done('noted', order);
    if (event.status === 'failed') {
      // A failed attempt; the payer may try again on the same link, and a later capture is still credited.
      if (order.status === 'pending') await payments.settle(order.id, { status: 'failed', heldReason: null, gatewayPaymentId: null }, tx);
      return done('failed', order);
    }
    // Captured. A second payment on an order already settled is kept for review, not credited again.
    if (order.status === 'paid' || order.status === 'held' || order.status === 'refunded') {
      if (await payments.paymentApplied(row.gateway, payment.id, tx)) return done('duplicate', order);
      return done('extra_payment', order, payment.id);
    }
    const mismatch = payment.currency !== order.currency ? 'CURRENCY_MISMATCH' : payment.amountPaise !== order.amount_paise ? 'AMOUNT_MISMATCH' : null;
    if (mismatch) {
      await payments.settle(order.id, { status: 'held', heldReason: mismatch, gatewayPaymentId: payment.id, received: { paise: payment.amountPaise, currency: payment.currency } }, tx);
      return done('held', order, payment.id);
    }
    const result = await credit(order, payment.id, tx);
    if (result.held) {
      await payments.settle(order.id, { status: 'held', heldReason: result.held, gatewayPaymentId: payment.id, received: { paise: payment.amountPaise, currency: payment.currency } }, tx);
      return done('held', order, payment.id);
    }
    await payments.settle(order.id, { status: 'paid', heldReason: null, gatewayPaymentId: payment.id, paymentId: result.paymentRow ?? null, transferId: result.transferId ?? null }, tx);
    // A customer's payment tells the shop's bell (issue 14); a key order is the retailer's own purchase.
    const told = order.customer_id !== null ? await notices.aboutCustomer(order.customer_id, 'payment_received', { amount_paise: payment.amountPaise }, tx) : [];
    return { ...(await done('credited', order, payment.id, true)), told };
  }

  /** After commit: open screens refresh, and a paid-up phone the dues policy locked unlocks now. */
  async function afterApply(applied: Applied): Promise<void> {
    const order = applied.order;
    if (!order || applied.outcome === 'duplicate' || applied.outcome === 'unknown_order' || applied.outcome === 'unreadable') return;
    if (applied.told?.length) deps.notify?.({ type: 'notification', user_ids: applied.told });
    if (order.customer_id !== null) {
      deps.notify?.({ type: 'payment', customer_ids: [order.customer_id] });
      if (applied.credited) {
        deps.notify?.({ type: 'emi', customer_ids: [order.customer_id] });
        await deps.unlockPaid([order.customer_id]).catch((error: unknown) => log('unlocking a paid-up phone failed; the device sweep tries again', error));
      }
    } else {
      orderMoved(order);
      if (applied.credited) deps.notify?.({ type: 'network', user_ids: [order.retailer_id, ...(order.seller_id !== null ? [order.seller_id] : [])] });
    }
  }

  /** Takes the next due event and applies it; false when none is left. */
  async function applyNext(): Promise<boolean> {
    let claimed: EventRow | undefined;
    try {
      const applied = await db.transaction(async (tx) => {
        claimed = await payments.nextEvent(tx);
        return claimed ? apply(claimed, tx) : null;
      });
      if (!applied) return false;
      await afterApply(applied);
      return true;
    } catch (error) {
      if (!claimed) throw error;
      log(`applying payment event ${claimed.event_id} failed; it is tried again later`, error);
      await payments.eventFailed(claimed.id);
      return true;
    }
  }

  // At most one drain runs and one waits (as the SMS queue does): a kick during a drain queues one more,
  // which starts after the kicker's event committed and so is sure to see it.
  let running: Promise<void> = Promise.resolve();
  let waiting: Promise<void> | null = null;
  let stopped = false;
  function drain(): Promise<void> {
    if (waiting) return waiting;
    // Never rejects: a database that is away is logged, and the events wait in the table for the next drain.
    const next = running
      .then(async () => {
        waiting = null;
        while (!stopped && (await applyNext()));
      })
      .catch((error: unknown) => log('the payment events worker failed; the events stay queued', error));
    waiting = next;
    running = next;
    return next;
  }

  return {
    /** For the phone's "Pay now" (device routes) and the retailer's route: an order for what is due now, or `amountPaise`. */
    async createCustomerOrder(customerId: number, opts: { createdBy: number | null; amountPaise?: number }): Promise<PaymentOrderView> {
      return customerOrder(await customerRow(customerId), opts);
    },

    async customerOrderFor(caller: RequestAuth, body: CustomerOrderBody): Promise<PaymentOrderView> {
      const visible = await deps.customers.visible(caller, body.customer_id);
      return customerOrder(await customerRow(visible.id), {
        createdBy: caller.userId,
        ...(body.amount_paise !== undefined ? { amountPaise: body.amount_paise } : {}),
        ...(body.idempotency_key ? { idempotencyKey: body.idempotency_key } : {}),
        ...(body.send_sms ? { sendSms: true } : {}),
      });
    },

    /** The network's orders (a mini-retailer's: its customers' and its own key orders), newest first. */
    async orders(caller: RequestAuth, query: { purpose?: OrderListRow['purpose']; status?: OrderListRow['status']; customer_id?: number; page?: number }): Promise<PaymentOrderList> {
      if (query.customer_id !== undefined) await deps.customers.visible(caller, query.customer_id);
      const page = query.page ?? 1;
      const rows = await payments.list({
        accountId: caller.accountId, retailerId: ownRetailerOf(caller),
        ...(query.purpose ? { purpose: query.purpose } : {}), ...(query.status ? { status: query.status } : {}),
        ...(query.customer_id !== undefined ? { customerId: query.customer_id } : {}),
        limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE,
      });
      return { items: rows.slice(0, PAGE_SIZE).map(toView), page, has_more: rows.length > PAGE_SIZE };
    },

    /**
     * A held order after review, in the caller's scope (another network's or a sibling's order is NOT_FOUND).
     * `record`: the amount received (the gateway's figure unless corrected) goes into the customer's ledger through
     * the EMI service's allocation, under the idempotency key `held-<order>`, and the order is paid, in one
     * transaction behind the order's row lock; a second resolution finds it resolved (ORDER_NOT_HELD). `refund`:
     * the money went back to the payer; nothing is credited.
     */
    async resolveHeld(caller: RequestAuth, body: HeldOrderBody): Promise<PaymentOrderView> {
      const resolved = await db.transaction(async (tx) => {
        const order = await payments.visibleForUpdate({ accountId: caller.accountId, retailerId: ownRetailerOf(caller) }, body.id, tx);
        if (!order) throw new AppError('NOT_FOUND');
        if (order.status !== 'held') throw new AppError('ORDER_NOT_HELD');
        if (body.action === 'refund') {
          await payments.resolve(order.id, { status: 'refunded', paymentId: null, resolvedBy: caller.userId }, tx);
          return { order, paid: false };
        }
        if (order.purpose !== 'emi') throw invalid('action', 'only a customer\'s EMI payment can be recorded; keys are credited by their seller');
        // Another currency's figure is not rupees: the reviewer must say what arrived.
        const received = order.received_currency === null || order.received_currency === 'INR' ? order.received_paise : null;
        const amount = body.amount_paise ?? received;
        if (!amount) throw invalid('amount_paise', 'enter the amount received in rupees');
        const paymentId = await deps.payInLedger(tx, caller, order.customer_id!, amount, 'upi', order.gateway_payment_id, `held-${order.id}`);
        await payments.resolve(order.id, { status: 'paid', paymentId, resolvedBy: caller.userId }, tx);
        return { order, paid: true };
      });
      orderMoved(resolved.order);
      if (resolved.paid && resolved.order.customer_id !== null) {
        deps.notify?.({ type: 'emi', customer_ids: [resolved.order.customer_id] });
        await deps.unlockPaid([resolved.order.customer_id]).catch((error: unknown) => log('unlocking a paid-up phone failed; the device sweep tries again', error));
      }
      return view(resolved.order.id);
    },

    async quote(caller: RequestAuth, body: KeyQuoteBody): Promise<KeyQuote> {
      const { org_id: _org, buyer_id: _buyer, ...quote } = await quoteFor(caller, body);
      return quote;
    },

    /** An order for keys at the quoted price; the keys move from the seller when the payment is confirmed. */
    async keyOrder(caller: RequestAuth, body: KeyOrderBody): Promise<PaymentOrderView> {
      const quote = await quoteFor(caller, body);
      const pg = await gatewayFor(quote.org_id);
      if (quote.amount_paise < 100) throw new AppError('PRICE_UNAVAILABLE');
      if (quote.seller_id !== null) {
        // Money for keys the seller does not hold would only be held for a refund: refused before paying.
        const stock = (await db.query<{ balance: number }>('SELECT balance FROM license_balances WHERE user_id = $1 AND product_type = $2', [quote.seller_id, quote.product_type])).rows[0];
        if (!stock || stock.balance < quote.quantity) throw new AppError('NOT_ENOUGH_KEYS');
      }
      return open(pg, {
        id: newOrderId(), org_id: quote.org_id, account_id: caller.accountId, retailer_id: caller.userId, purpose: 'keys', customer_id: null,
        product_type: quote.product_type, quantity: quote.quantity, seller_id: quote.seller_id, unit_price_paise: quote.unit_price_paise, amount_paise: quote.amount_paise,
        gateway: pg.name, caller: `u${caller.userId}`, idempotency_key: body.idempotency_key, created_by: caller.userId,
        expires_at: new Date(Date.now() + deps.config.orderMinutes * 60_000),
      }, { description: `${quote.quantity} keys (type ${quote.product_type})` },
      (earlier) => earlier.purpose === 'keys' && earlier.product_type === body.product_type && earlier.quantity === body.quantity);
    },

    /**
     * A webhook: verified over the exact bytes received, stored once by its event id, and answered; the worker
     * applies it from the table. Nothing is stored for a bad signature.
     */
    async receiveWebhook(gatewayName: string, rawBody: Buffer, signature: string | undefined, headers: Record<string, string | string[] | undefined>): Promise<{ stored: boolean }> {
      if (!gateway || gateway.name !== gatewayName || !gateway.verify(rawBody, signature)) throw new AppError('SIGNATURE_INVALID');
      const event = gateway.parseEvent(rawBody);
      const stored = await payments.addEvent({ gateway: gateway.name, eventId: gateway.eventId(rawBody, headers), eventType: event?.type.slice(0, 100) ?? 'unreadable', body: rawBody.toString() });
      return { stored };
    },

    /** Applies every stored event that is due; resolves when done (tests and the worker's sweep await it). */
    drain,

    /** A webhook was stored: apply it now, on a node that applies events. */
    kick(): void {
      if (deps.config.applyEvents) void drain();
    },

    /**
     * Asks the gateway about orders pending longer than the configured minutes: what it says was paid or failed
     * goes into the events table and through the same path as a webhook; an order past its time with nothing
     * paid expires. A gateway that does not answer leaves its orders for the next round.
     */
    async reconcile(limit = 100): Promise<{ checked: number; expired: number; unreachable: number }> {
      const stats = { checked: 0, expired: 0, unreachable: 0 };
      for (const order of await payments.expireUnopened()) {
        stats.expired++;
        orderMoved(order);
      }
      if (!gateway) return stats;
      for (const order of await payments.dueForCheck(deps.config.reconcileAfterMinutes, limit)) {
        let found: Awaited<ReturnType<PaymentGateway['payments']>>;
        try {
          found = await gateway.payments(order.gateway_ref!);
        } catch (error) {
          stats.unreachable++;
          log(`reconciliation could not ask the gateway about ${order.id}`, error);
          continue;
        }
        stats.checked++;
        for (const p of found) {
          if (p.status === 'other') continue;
          const event: GatewayEvent = { type: `reconciliation.${p.status}`, status: p.status, payment: { id: p.id, amountPaise: p.amountPaise, currency: p.currency }, refs: { reference: order.id, gatewayRef: order.gateway_ref, gatewayOrderId: order.gateway_order_id } };
          await payments.addEvent({ gateway: gateway.name, eventId: `${RECONCILED}${p.id}:${p.status}`, eventType: event.type, body: JSON.stringify(event) });
        }
        await payments.checked(order.id);
        if (!found.some((p) => p.status === 'captured' || p.status === 'authorized') && (await payments.expire(order.id))) {
          stats.expired++;
          orderMoved(order);
        }
      }
      await drain();
      return stats;
    },

    /** Stops the worker after the event in hand; unapplied events stay in the table for the next start. */
    async stop(): Promise<void> {
      stopped = true;
      await running;
    },

    view,
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
