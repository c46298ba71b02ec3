/** Gateway orders (payment_orders) and the gateway's events queued for the worker (payment_gateway_events). */
import type { Queryable } from '../../db/database.ts';
import type { OrderPurpose, OrderStatus } from '@kisht/contract/payments';

export interface OrderRow {
  id: string;
  org_id: number;
  account_id: number;
  retailer_id: number;
  purpose: OrderPurpose;
  customer_id: number | null;
  product_type: number | null;
  quantity: number | null;
  seller_id: number | null;
  unit_price_paise: number | null;
  amount_paise: number;
  currency: 'INR';
  gateway: string;
  gateway_ref: string | null;
  gateway_order_id: string | null;
  short_url: string | null;
  upi_link: string | null;
  status: OrderStatus;
  held_reason: string | null;
  received_paise: number | null;
  received_currency: string | null;
  resolved_at: Date | null;
  gateway_payment_id: string | null;
  payment_id: number | null;
  transfer_id: string | null;
  caller: string;
  idempotency_key: string | null;
  created_by: number | null;
  created_at: Date;
  paid_at: Date | null;
  expires_at: Date;
}

/** An order as lists show it: with the customer's name and the receipt of its ledger payment. */
export interface OrderListRow extends OrderRow {
  customer_name: string | null;
  receipt_no: string | null;
}

export type NewOrder = Pick<OrderRow, 'id' | 'org_id' | 'account_id' | 'retailer_id' | 'purpose' | 'customer_id' | 'product_type' | 'quantity' | 'seller_id' | 'unit_price_paise' | 'amount_paise' | 'gateway' | 'caller' | 'idempotency_key' | 'created_by' | 'expires_at'>;

export interface EventRow {
  id: number;
  gateway: string;
  event_id: string;
  event_type: string;
  body: string;
  tries: number;
}

export interface OrderFilter {
  accountId: number;
  /** A mini-retailer: only orders for its own customers and its own key orders. */
  retailerId: number | null;
  purpose?: OrderPurpose;
  status?: OrderStatus;
  customerId?: number;
  limit: number;
  offset: number;
}

const LIST_COLUMNS = `o.*, CASE WHEN c.id IS NULL THEN NULL ELSE c.first_name || ' ' || c.last_name END AS customer_name, p.receipt_no`;
const LIST_FROM = 'payment_orders o LEFT JOIN customers c ON c.id = o.customer_id LEFT JOIN payments p ON p.id = o.payment_id';

export function createPaymentsRepository(db: Queryable) {
  return {
    /** Writes a new order, or finds the caller's earlier one under the same idempotency key (fresh: false). */
    async claimOrder(order: NewOrder, q: Queryable = db): Promise<{ row: OrderRow; fresh: boolean }> {
      const inserted = await q.query<OrderRow>(
        `INSERT INTO payment_orders (id, org_id, account_id, retailer_id, purpose, customer_id, product_type, quantity, seller_id, unit_price_paise,
                                     amount_paise, gateway, caller, idempotency_key, created_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         ON CONFLICT (caller, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING *`,
        [order.id, order.org_id, order.account_id, order.retailer_id, order.purpose, order.customer_id, order.product_type, order.quantity, order.seller_id,
          order.unit_price_paise, order.amount_paise, order.gateway, order.caller, order.idempotency_key, order.created_by, order.expires_at],
      );
      if (inserted.rows[0]) return { row: inserted.rows[0], fresh: true };
      const earlier = await q.query<OrderRow>('SELECT * FROM payment_orders WHERE caller = $1 AND idempotency_key = $2', [order.caller, order.idempotency_key]);
      return { row: earlier.rows[0]!, fresh: false };
    },

    /** What the gateway opened for the order. */
    async opened(id: string, opened: { ref: string; orderId: string | null; shortUrl: string | null; upiLink: string | null }): Promise<void> {
      await db.query(
        'UPDATE payment_orders SET gateway_ref = $2, gateway_order_id = $3, short_url = $4, upi_link = $5 WHERE id = $1',
        [id, opened.ref, opened.orderId, opened.shortUrl, opened.upiLink],
      );
    },

    /** The gateway refused to open it: nobody can pay it. */
    async openFailed(id: string): Promise<void> {
      await db.query(`UPDATE payment_orders SET status = 'failed' WHERE id = $1 AND status = 'pending' AND gateway_ref IS NULL`, [id]);
    },

    /** A pending order the phone asked for earlier for the same amount, still open long enough to pay. */
    async openPhoneOrder(customerId: number, amountPaise: number): Promise<OrderRow | undefined> {
      return (await db.query<OrderRow>(
        `SELECT * FROM payment_orders
          WHERE customer_id = $1 AND purpose = 'emi' AND status = 'pending' AND created_by IS NULL AND amount_paise = $2
            AND gateway_ref IS NOT NULL AND expires_at > now() + interval '10 minutes'
          ORDER BY created_at DESC LIMIT 1`,
        [customerId, amountPaise],
      )).rows[0];
    },

    async view(id: string, q: Queryable = db): Promise<OrderListRow | undefined> {
      return (await q.query<OrderListRow>(`SELECT ${LIST_COLUMNS} FROM ${LIST_FROM} WHERE o.id = $1`, [id])).rows[0];
    },

    /** One page of the network's orders, newest first; one more row than the page tells whether more follow. */
    async list(filter: OrderFilter): Promise<OrderListRow[]> {
      const params: unknown[] = [filter.accountId];
      const where = ['o.account_id = $1'];
      if (filter.retailerId !== null) where.push(`o.retailer_id = $${params.push(filter.retailerId)}`);
      if (filter.purpose) where.push(`o.purpose = $${params.push(filter.purpose)}`);
      if (filter.status) where.push(`o.status = $${params.push(filter.status)}`);
      if (filter.customerId !== undefined) where.push(`o.customer_id = $${params.push(filter.customerId)}`);
      return (await db.query<OrderListRow>(
        `SELECT ${LIST_COLUMNS} FROM ${LIST_FROM} WHERE ${where.join(' AND ')}
          ORDER BY o.created_at DESC, o.id DESC LIMIT $${params.push(filter.limit + 1)} OFFSET $${params.push(filter.offset)}`,
        params,
      )).rows;
    },

    /** The order an event names, by any of its references, locked for the rest of the transaction. */
    async findForEvent(refs: { reference: string | null; gatewayRef: string | null; gatewayOrderId: string | null }, gateway: string, q: Queryable): Promise<OrderRow | undefined> {
      // Our own reference (in the notes of nearly every event) is the primary key: one index probe.
      if (refs.reference) {
        const own = (await q.query<OrderRow>('SELECT * FROM payment_orders WHERE id = $1 AND gateway = $2 FOR UPDATE', [refs.reference, gateway])).rows[0];
        if (own) return own;
      }
      return (await q.query<OrderRow>(
        `SELECT * FROM payment_orders
          WHERE gateway = $4 AND (id = $1 OR gateway_ref = $2 OR gateway_order_id = $3)
          ORDER BY (id = $1) DESC NULLS LAST LIMIT 1 FOR UPDATE`,
        [refs.reference, refs.gatewayRef, refs.gatewayOrderId, gateway],
      )).rows[0];
    },

    async settle(
      id: string,
      change: { status: OrderStatus; heldReason: string | null; gatewayPaymentId: string | null; paymentId?: number | null; transferId?: string | null; received?: { paise: number; currency: string } },
      q: Queryable,
    ): Promise<void> {
      await q.query(
        `UPDATE payment_orders SET status = $2, held_reason = $3, gateway_payment_id = coalesce($4, gateway_payment_id),
                payment_id = coalesce($5, payment_id), transfer_id = coalesce($6::uuid, transfer_id),
                received_paise = coalesce($7, received_paise), received_currency = coalesce($8, received_currency),
                paid_at = CASE WHEN $2 = 'paid' THEN now() ELSE paid_at END
          WHERE id = $1`,
        [id, change.status, change.heldReason, change.gatewayPaymentId, change.paymentId ?? null, change.transferId ?? null, change.received?.paise ?? null, change.received?.currency ?? null],
      );
    },

    /**
     * An order in the viewer's scope (its network; a mini-retailer only its own), locked until the transaction
     * ends, so two reviewers resolving it at once take turns and the second finds it resolved.
     */
    async visibleForUpdate(viewer: { accountId: number; retailerId: number | null }, id: string, q: Queryable): Promise<OrderRow | undefined> {
      return (await q.query<OrderRow>(
        'SELECT * FROM payment_orders WHERE id = $1 AND account_id = $2 AND ($3::int IS NULL OR retailer_id = $3) FOR UPDATE',
        [id, viewer.accountId, viewer.retailerId],
      )).rows[0];
    },

    /** A held order after review: paid through the ledger (its payment named here), or refunded. The held reason stays. */
    async resolve(id: string, change: { status: 'paid' | 'refunded'; paymentId: number | null; resolvedBy: number }, q: Queryable): Promise<void> {
      await q.query(
        `UPDATE payment_orders SET status = $2, payment_id = coalesce($3, payment_id), resolved_by = $4, resolved_at = now(),
                paid_at = CASE WHEN $2 = 'paid' THEN now() ELSE paid_at END
          WHERE id = $1 AND status = 'held'`,
        [id, change.status, change.paymentId, change.resolvedBy],
      );
    },

    /** Stores a verified event once; a resent event id stores nothing (returns false). */
    async addEvent(event: { gateway: string; eventId: string; eventType: string; body: string }, q: Queryable = db): Promise<boolean> {
      const res = await q.query(
        `INSERT INTO payment_gateway_events (gateway, event_id, event_type, body) VALUES ($1, $2, $3, $4) ON CONFLICT (gateway, event_id) DO NOTHING`,
        [event.gateway, event.eventId, event.eventType, event.body],
      );
      return res.rowCount > 0;
    },

    /** The next event due, held for this transaction; what another node holds is skipped, not waited for. */
    async nextEvent(q: Queryable): Promise<EventRow | undefined> {
      return (await q.query<EventRow>(
        `SELECT id, gateway, event_id, event_type, body, tries FROM payment_gateway_events
          WHERE applied_at IS NULL AND next_attempt_at <= now() ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      )).rows[0];
    },

    /** The event is done with: what it did, and the payment it applied (unique, so a payment applies once). */
    async eventApplied(id: number, outcome: string, orderId: string | null, appliedPaymentId: string | null, q: Queryable): Promise<void> {
      await q.query(
        'UPDATE payment_gateway_events SET applied_at = now(), outcome = $2, order_id = $3, applied_payment_id = $4 WHERE id = $1',
        [id, outcome, orderId, appliedPaymentId],
      );
    },

    /** Whether an event already applied this gateway payment (credited, held or kept as an extra payment). */
    async paymentApplied(gateway: string, paymentId: string, q: Queryable): Promise<boolean> {
      return (await q.query('SELECT 1 FROM payment_gateway_events WHERE gateway = $1 AND applied_payment_id = $2', [gateway, paymentId])).rows.length > 0;
    },

    /** Applying failed unexpectedly: try again later, waiting twice as long each time (up to an hour). */
    async eventFailed(id: number): Promise<void> {
      await db.query(
        `UPDATE payment_gateway_events SET tries = tries + 1, next_attempt_at = now() + make_interval(secs => least(3600, 5 * power(2, tries))) WHERE id = $1`,
        [id],
      );
    },

    /** Orders pending longer than `afterMinutes` and not asked about in that long, oldest first. */
    async dueForCheck(afterMinutes: number, limit: number): Promise<OrderRow[]> {
      return (await db.query<OrderRow>(
        `SELECT * FROM payment_orders
          WHERE status = 'pending' AND gateway_ref IS NOT NULL AND created_at <= now() - make_interval(mins => $1)
            AND (checked_at IS NULL OR checked_at <= now() - make_interval(mins => $1))
          ORDER BY created_at LIMIT $2`,
        [afterMinutes, limit],
      )).rows;
    },

    async checked(id: string): Promise<void> {
      await db.query('UPDATE payment_orders SET checked_at = now() WHERE id = $1', [id]);
    },

    /** Closes an order that is past its time and still unpaid (checked with the gateway just before). */
    async expire(id: string): Promise<boolean> {
      const res = await db.query(`UPDATE payment_orders SET status = 'expired' WHERE id = $1 AND status = 'pending' AND expires_at <= now()`, [id]);
      return res.rowCount > 0;
    },

    /** Orders that never reached the gateway (it refused or the node died before) and are past their time. */
    async expireUnopened(): Promise<Array<Pick<OrderRow, 'id' | 'customer_id' | 'account_id' | 'retailer_id'>>> {
      return (await db.query<Pick<OrderRow, 'id' | 'customer_id' | 'account_id' | 'retailer_id'>>(
        `UPDATE payment_orders SET status = 'expired' WHERE status = 'pending' AND gateway_ref IS NULL AND expires_at <= now() RETURNING id, customer_id, account_id, retailer_id`,
      )).rows;
    },

    /** The operator's price per key of a product type in the organisation's public price list (null: ask the admin). */
    async operatorPrice(orgId: number, productType: number, q: Queryable = db): Promise<number | null> {
      return (await q.query<{ price_paise: number | null }>(
        'SELECT price_paise FROM price_list WHERE org_id = $1 AND product_type = $2 ORDER BY sort_order, id LIMIT 1',
        [orgId, productType],
      )).rows[0]?.price_paise ?? null;
    },

    /** What a customer owes now (instalments due today or earlier) and in all, penalties included. */
    async owed(customerId: number, today: string): Promise<{ now: number; total: number }> {
      const row = (await db.query<{ now: string | null; total: string | null }>(
        `SELECT sum(amount_paise + penalty_paise - paid_paise) FILTER (WHERE due_date <= $2::date) AS now, sum(amount_paise + penalty_paise - paid_paise) AS total
           FROM emi_instalments WHERE customer_id = $1 AND paid_paise < amount_paise + penalty_paise`,
        [customerId, today],
      )).rows[0];
      return { now: Number(row?.now ?? 0), total: Number(row?.total ?? 0) };
    },

    async orgSettings(orgId: number, q: Queryable = db): Promise<{ gateway_on: boolean } | undefined> {
      return (await q.query<{ gateway_on: boolean }>(
        `SELECT coalesce((features->>'payment_gateway')::boolean, false) AS gateway_on FROM organizations WHERE id = $1`,
        [orgId],
      )).rows[0];
    },
  };
}
export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
