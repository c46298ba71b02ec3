/** Customers' "I paid" claims (migration 026): the only SQL of the module. */
import type { Queryable } from '../../db/database.ts';
import type { ClaimStatus } from '@kisht/contract/payments';
import { ownRetailerOf, type Viewer } from '../customers/customers.repository.ts';

export interface ClaimRow {
  id: number;
  customer_id: number;
  account_id: number;
  customer_name: string;
  amount_paise: number | null;
  reference: string | null;
  status: ClaimStatus;
  presses: number;
  updated_at: Date;
  created_at: Date;
  decided_at: Date | null;
  reason: string | null;
  receipt_no: string | null;
}

const COLUMNS = `p.id, p.customer_id, p.account_id, c.first_name || ' ' || c.last_name AS customer_name, p.amount_paise, p.reference, p.status,
  p.presses, p.updated_at, p.created_at, p.decided_at, p.decision_reason AS reason, pay.receipt_no`;
const FROM = 'payment_claims p JOIN customers c ON c.id = p.customer_id LEFT JOIN payments pay ON pay.id = p.payment_id';
/** The customers' visibility rule (customers.repository): the caller's network, a mini-retailer only its own sales. */
const VISIBLE = 'p.account_id = $1 AND c.account_id = $1 AND ($2::int IS NULL OR c.retailer_id = $2)';

export function createPaymentClaimsRepository(db: Queryable) {
  return {
    /**
     * Serialises the presses of one customer's phone until the transaction ends, so the open-claim check and
     * the day's count see each other. Retailers' decisions lock the claim row instead; neither waits on the other.
     */
    async lockCustomer(customerId: number, q: Queryable): Promise<void> {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`payment-claim:${customerId}`]);
    },

    /** The customer's open claim, with how long ago it last changed by the database's clock (the phone's rate limit). */
    async open(customerId: number, q: Queryable = db): Promise<(ClaimRow & { quiet_seconds: number }) | undefined> {
      return (await q.query<ClaimRow & { quiet_seconds: number }>(
        `SELECT ${COLUMNS}, extract(epoch FROM now() - p.updated_at)::float8 AS quiet_seconds FROM ${FROM} WHERE p.customer_id = $1 AND p.status = 'open'`,
        [customerId],
      )).rows[0];
    },

    /** Claims the customer opened in the last `hours`, whatever became of them, and when the oldest leaves that window. */
    async openedWithin(customerId: number, hours: number, q: Queryable = db): Promise<{ count: number; frees_in_seconds: number }> {
      const res = await q.query<{ count: number; frees_in_seconds: number | null }>(
        `SELECT count(*)::int AS count, ceil(extract(epoch FROM min(created_at) + make_interval(hours => $2) - now()))::int AS frees_in_seconds
           FROM payment_claims WHERE customer_id = $1 AND created_at > now() - make_interval(hours => $2)`,
        [customerId, hours],
      );
      const row = res.rows[0]!;
      return { count: row.count, frees_in_seconds: Math.max(1, row.frees_in_seconds ?? 1) };
    },

    async insert(claim: { customer_id: number; account_id: number; device_id: string; amount_paise: number | null; reference: string | null }, q: Queryable): Promise<number> {
      const res = await q.query<{ id: number }>(
        'INSERT INTO payment_claims (customer_id, account_id, device_id, amount_paise, reference) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [claim.customer_id, claim.account_id, claim.device_id, claim.amount_paise, claim.reference],
      );
      return res.rows[0]!.id;
    },

    /** Another press on the open claim: what it brings replaces what the claim had; what it leaves out stays. */
    async press(id: number, change: { device_id: string; amount_paise: number | null; reference: string | null }, q: Queryable): Promise<void> {
      await q.query(
        `UPDATE payment_claims SET presses = presses + 1, device_id = $2, amount_paise = coalesce($3, amount_paise), reference = coalesce($4, reference), updated_at = now()
          WHERE id = $1 AND status = 'open'`,
        [id, change.device_id, change.amount_paise, change.reference],
      );
    },

    async byId(id: number, q: Queryable = db): Promise<ClaimRow | undefined> {
      return (await q.query<ClaimRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE p.id = $1`, [id])).rows[0];
    },

    /** A claim the viewer may see, locked until the transaction ends (a second confirmation waits here). */
    async visibleForUpdate(viewer: Viewer, id: number, q: Queryable): Promise<ClaimRow | undefined> {
      return (await q.query<ClaimRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE ${VISIBLE} AND p.id = $3 FOR UPDATE OF p`, [viewer.accountId, ownRetailerOf(viewer), id])).rows[0];
    },

    async decide(id: number, decision: { status: 'confirmed' | 'rejected'; amount_paise: number | null; decided_by: number; payment_id: number | null; reason: string | null }, q: Queryable): Promise<void> {
      await q.query(
        `UPDATE payment_claims SET status = $2, amount_paise = coalesce($3, amount_paise), decided_by = $4, payment_id = $5, decision_reason = $6, decided_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'open'`,
        [id, decision.status, decision.amount_paise, decision.decided_by, decision.payment_id, decision.reason],
      );
    },

    /** Newest first; one row more than the page says whether another page follows. */
    async list(viewer: Viewer, filter: { status?: ClaimStatus; customer_id?: number }, limit: number, offset: number): Promise<ClaimRow[]> {
      const res = await db.query<ClaimRow>(
        `SELECT ${COLUMNS} FROM ${FROM}
          WHERE ${VISIBLE} AND ($3::text IS NULL OR p.status = $3) AND ($4::int IS NULL OR p.customer_id = $4)
          ORDER BY p.created_at DESC, p.id DESC LIMIT $5 OFFSET $6`,
        [viewer.accountId, ownRetailerOf(viewer), filter.status ?? null, filter.customer_id ?? null, limit + 1, offset],
      );
      return res.rows;
    },
  };
}
export type PaymentClaimsRepository = ReturnType<typeof createPaymentClaimsRepository>;
