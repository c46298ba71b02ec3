/**
 * The retailer network (users.path, an ltree of ids from the top) and the key transfers along it. Every read
 * names the caller's node: a member is reachable only when its path lies under the caller's.
 */
import type { Queryable } from '../../db/database.ts';
import type { LockAccess, UserAccess } from '@kisht/domain/constants';
import type { NetworkQuery } from '@kisht/contract/network';

export interface NodeRow {
  id: number;
  org_id: number;
  account_id: number;
  parent_id: number | null;
  user_type: 'retailer' | 'miniretailer';
  path: string;
  active: boolean;
  user_access: UserAccess;
  lock_access: LockAccess;
}

export interface MemberRow {
  id: number;
  user_type: 'retailer' | 'miniretailer';
  first_name: string;
  last_name: string;
  shop_name: string | null;
  mobile: string;
  city: string | null;
  email: string | null;
  active: boolean;
  has_photo: boolean;
  has_signature: boolean;
  upi_id: string | null;
  upi_name: string | null;
  parent_id: number | null;
  depth: number;
  balances: Array<{ product_type: number; balance: number }>;
  customers: number;
  user_access: UserAccess;
  lock_access: LockAccess;
}

export interface TransferRow {
  id: string;
  kind: 'send' | 'request' | 'return' | 'topup';
  state: 'done' | 'pending' | 'rejected';
  product_type: number;
  quantity: number;
  from_user_id: number | null;
  to_user_id: number;
  price_paise: number | null;
  note: string | null;
  created_by: number | null;
  created_at: Date;
  decided_at: Date | null;
}

export interface HistoryRow {
  at: Date;
  kind: string;
  product_type: number;
  change: number;
  balance_after: number | null;
  transfer_id: string | null;
  state: string | null;
  counterpart_id: number | null;
  counterpart_name: string | null;
  customer_id: number | null;
  price_paise: number | null;
  can_decide: boolean;
}

export type MemberImageColumn = 'photo_path' | 'signature_path' | 'payment_qr_path';

const NODE_COLUMNS = 'id, org_id, account_id, parent_id, user_type, path::text AS path, active, user_access, lock_access';

/** A member with its balances and customer count; `$1` is the viewer's path (for depth). */
const MEMBER_SELECT = `SELECT u.id, u.user_type, u.first_name, u.last_name, u.shop_name, u.mobile, u.city, u.email, u.active,
    u.photo_path IS NOT NULL AS has_photo, u.signature_path IS NOT NULL AS has_signature, u.upi_id, u.upi_name,
    u.parent_id, (nlevel(u.path) - nlevel($1::ltree))::int AS depth, u.user_access, u.lock_access,
    coalesce((SELECT json_agg(json_build_object('product_type', b.product_type, 'balance', b.balance) ORDER BY b.product_type)
                FROM license_balances b WHERE b.user_id = u.id), '[]'::json) AS balances,
    (SELECT count(*)::int FROM customers c WHERE c.retailer_id = u.id) AS customers
  FROM users u`;

export function createNetworkRepository(db: Queryable) {
  return {
    async node(userId: number, q: Queryable = db): Promise<NodeRow | undefined> {
      return (await q.query<NodeRow>(`SELECT ${NODE_COLUMNS} FROM users WHERE id = $1`, [userId])).rows[0];
    },

    /** The member if it is the viewer or lies below it; undefined for a parent, a sibling or another branch. */
    async nodeUnder(viewerPath: string, id: number, q: Queryable = db, lock = false): Promise<NodeRow | undefined> {
      return (await q.query<NodeRow>(`SELECT ${NODE_COLUMNS} FROM users WHERE id = $2 AND path <@ $1::ltree${lock ? ' FOR UPDATE' : ''}`, [viewerPath, id])).rows[0];
    },

    async member(viewerPath: string, id: number): Promise<MemberRow | undefined> {
      return (await db.query<MemberRow>(`${MEMBER_SELECT} WHERE u.id = $2 AND u.path <@ $1::ltree`, [viewerPath, id])).rows[0];
    },

    /** Where a member's image is stored (null when none is). */
    async imagePath(id: number, column: MemberImageColumn): Promise<string | null> {
      return (await db.query<{ path: string | null }>(`SELECT ${column} AS path FROM users WHERE id = $1`, [id])).rows[0]?.path ?? null;
    },

    /** Points the member at a newly stored image (and, for a payment QR, its UPI payee); the path it replaced. */
    async setImage(id: number, column: MemberImageColumn, path: string, upi?: { vpa: string; name: string | null }): Promise<string | null> {
      const res = await db.query<{ previous: string | null }>(
        `UPDATE users u SET ${column} = $2${upi ? ', upi_id = $3, upi_name = $4' : ''} FROM (SELECT id, ${column} AS previous FROM users WHERE id = $1 FOR UPDATE) old
          WHERE u.id = old.id RETURNING old.previous`,
        upi ? [id, path, upi.vpa, upi.name] : [id, path],
      );
      return res.rows[0]?.previous ?? null;
    },

    /** One page of the viewer's subtree (itself excluded), in tree order. */
    async list(viewerPath: string, query: NetworkQuery): Promise<{ rows: MemberRow[]; total: number }> {
      const params: unknown[] = [viewerPath];
      const where = ['u.path <@ $1::ltree', 'u.path <> $1::ltree'];
      if (query.user_type) where.push(`u.user_type = $${params.push(query.user_type)}`);
      if (query.status) where.push(query.status === 'active' ? 'u.active' : 'NOT u.active');
      if (query.search) {
        const digits = query.search.replace(/\D/g, '');
        const text = query.search.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
        const n = params.push(`${text}%`);
        const parts = [`lower(u.first_name || ' ' || u.last_name) LIKE $${n}`, `lower(u.last_name) LIKE $${n}`, `lower(coalesce(u.shop_name, '')) LIKE $${n}`];
        if (digits.length >= 3) parts.push(`u.mobile LIKE $${params.push(`%${digits}%`)}`);
        where.push(`(${parts.join(' OR ')})`);
      }
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u WHERE ${where.join(' AND ')}`, params)).rows[0]!.n;
      const rows = await db.query<MemberRow>(
        `${MEMBER_SELECT} WHERE ${where.join(' AND ')} ORDER BY u.path LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, (query.page - 1) * query.limit],
      );
      return { rows: rows.rows, total };
    },

    /** Whether this member or one above it is blocked. */
    async blockedAbove(path: string, q: Queryable = db): Promise<boolean> {
      return ((await q.query('SELECT 1 FROM users WHERE path @> $1::ltree AND NOT active LIMIT 1', [path])).rowCount ?? 0) > 0;
    },

    async counts(id: number): Promise<{ children: number; pending_requests: number }> {
      return (await db.query<{ children: number; pending_requests: number }>(
        `SELECT (SELECT count(*)::int FROM users WHERE parent_id = $1) AS children,
                (SELECT count(*)::int FROM key_transfers WHERE state = 'pending' AND (from_user_id = $1 OR to_user_id = $1)) AS pending_requests`,
        [id],
      )).rows[0]!;
    },

    async update(id: number, changes: Record<string, unknown>, q: Queryable): Promise<void> {
      const columns = Object.keys(changes).filter((c) => ['first_name', 'last_name', 'shop_name', 'email', 'city', 'active'].includes(c));
      if (columns.length === 0) return;
      await q.query(`UPDATE users SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...columns.map((c) => changes[c])]);
    },

    /** Turns switches off for a member and everything below it (a switch on is the member's own only). */
    async switchOffBelow(path: string, column: 'user_access' | 'lock_access', off: Record<string, '0'>, q: Queryable): Promise<void> {
      await q.query(`UPDATE users SET ${column} = ${column} || $2::jsonb WHERE path <@ $1::ltree`, [path, JSON.stringify(off)]);
    },

    /** Ends the sessions of the member at `path` and of everything below it; the users whose sessions ended. */
    async endSessionsBelow(path: string, q: Queryable): Promise<number[]> {
      const res = await q.query<{ user_id: number }>(
        `UPDATE sessions SET ended_at = now() WHERE ended_at IS NULL AND user_id IN (SELECT id FROM users WHERE path <@ $1::ltree) RETURNING user_id`, [path],
      );
      return [...new Set(res.rows.map((r) => r.user_id))];
    },

    // --- key transfers ---

    /** Writes the transfer unless its id is taken; the row with that id either way, and whether it is new. */
    async claimTransfer(t: Omit<TransferRow, 'created_at' | 'decided_at'>, q: Queryable): Promise<{ row: TransferRow; fresh: boolean }> {
      const inserted = await q.query<TransferRow>(
        `INSERT INTO key_transfers (id, kind, state, product_type, quantity, from_user_id, to_user_id, price_paise, note, created_by, decided_at, decided_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $3 = 'done' THEN now() END, CASE WHEN $3 = 'done' THEN $10::int END)
         ON CONFLICT (id) DO NOTHING RETURNING *`,
        [t.id, t.kind, t.state, t.product_type, t.quantity, t.from_user_id, t.to_user_id, t.price_paise, t.note, t.created_by],
      );
      if (inserted.rows[0]) return { row: inserted.rows[0], fresh: true };
      return { row: (await q.query<TransferRow>('SELECT * FROM key_transfers WHERE id = $1', [t.id])).rows[0]!, fresh: false };
    },

    async pendingForUpdate(id: string, q: Queryable): Promise<TransferRow | undefined> {
      return (await q.query<TransferRow>(`SELECT * FROM key_transfers WHERE id = $1 FOR UPDATE`, [id])).rows[0];
    },

    async decide(id: string, state: 'done' | 'rejected', by: number, price: number | null, q: Queryable): Promise<TransferRow> {
      return (await q.query<TransferRow>(
        `UPDATE key_transfers SET state = $2, decided_by = $3, decided_at = now(), price_paise = coalesce($4, price_paise) WHERE id = $1 RETURNING *`,
        [id, state, by, price],
      )).rows[0]!;
    },

    /**
     * Moves keys in the caller's transaction: the sender's balance drops only if it holds enough (one
     * conditional UPDATE, so concurrent transfers queue on the row and none goes below zero), then the
     * receiver's rises; one ledger line each, naming the transfer, the other party and the balance after.
     * False when the sender has too few.
     */
    async move(transfer: TransferRow, q: Queryable): Promise<boolean> {
      const { id, from_user_id: from, to_user_id: to, product_type: type, quantity } = transfer;
      if (from !== null) {
        const debit = await q.query<{ balance: number }>(
          'UPDATE license_balances SET balance = balance - $3 WHERE user_id = $1 AND product_type = $2 AND balance >= $3 RETURNING balance',
          [from, type, quantity],
        );
        if (!debit.rows[0]) return false;
        await q.query(
          `INSERT INTO license_ledger (user_id, product_type, change, reason, transfer_id, counterpart_id, balance_after) VALUES ($1, $2, $3, 'transfer', $4, $5, $6)`,
          [from, type, -quantity, id, to, debit.rows[0].balance],
        );
      }
      const credit = await q.query<{ balance: number }>(
        `INSERT INTO license_balances (user_id, product_type, balance) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, product_type) DO UPDATE SET balance = license_balances.balance + EXCLUDED.balance RETURNING balance`,
        [to, type, quantity],
      );
      await q.query(
        `INSERT INTO license_ledger (user_id, product_type, change, reason, transfer_id, counterpart_id, balance_after) VALUES ($1, $2, $3, 'transfer', $4, $5, $6)`,
        [to, type, quantity, id, from, credit.rows[0]!.balance],
      );
      return true;
    },

    async balanceTypes(userId: number, parentId: number | null, orgId: number): Promise<Array<{ product_type: number; name: string; balance: number; buy_price_paise: number | null; sell_price_paise: number | null }>> {
      return (await db.query<{ product_type: number; name: string; balance: number; buy_price_paise: number | null; sell_price_paise: number | null }>(
        `SELECT p.product_type, p.name, coalesce(b.balance, 0) AS balance, buy.price_paise AS buy_price_paise, sell.price_paise AS sell_price_paise
           FROM products p
           LEFT JOIN license_balances b ON b.user_id = $1 AND b.product_type = p.product_type
           LEFT JOIN key_prices buy ON buy.seller_id = $2 AND buy.product_type = p.product_type
           LEFT JOIN key_prices sell ON sell.seller_id = $1 AND sell.product_type = p.product_type
          WHERE p.org_id = $3 AND p.active ORDER BY p.product_type`,
        [userId, parentId, orgId],
      )).rows;
    },

    async setPrice(sellerId: number, productType: number, pricePaise: number | null): Promise<void> {
      if (pricePaise === null) await db.query('DELETE FROM key_prices WHERE seller_id = $1 AND product_type = $2', [sellerId, productType]);
      else {
        await db.query(
          `INSERT INTO key_prices (seller_id, product_type, price_paise) VALUES ($1, $2, $3)
           ON CONFLICT (seller_id, product_type) DO UPDATE SET price_paise = EXCLUDED.price_paise`,
          [sellerId, productType, pricePaise],
        );
      }
    },

    async priceOf(sellerId: number, productType: number, q: Queryable = db): Promise<number | null> {
      return (await q.query<{ price_paise: number }>('SELECT price_paise FROM key_prices WHERE seller_id = $1 AND product_type = $2', [sellerId, productType])).rows[0]?.price_paise ?? null;
    },

    /**
     * A member's key history, newest first: its ledger lines (each movement with the balance after it) and
     * the requests it made or was asked that moved nothing (pending or rejected).
     */
    /** `viewer`: who reads it; a request it may approve or reject says so (can_decide). */
    async history(userId: number, viewer: number, filter: { productType?: number; from?: string; to?: string; limit: number; offset: number }): Promise<{ rows: HistoryRow[]; total: number }> {
      const params: unknown[] = [userId, viewer];
      const on = (alias: string) => {
        const parts: string[] = [];
        if (filter.productType !== undefined) parts.push(`${alias}.product_type = $${params.push(filter.productType)}`);
        if (filter.from) parts.push(`${alias}.created_at >= ($${params.push(filter.from)}::date)::timestamp AT TIME ZONE 'Asia/Kolkata'`);
        if (filter.to) parts.push(`${alias}.created_at < ($${params.push(filter.to)}::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'`);
        return parts.map((p) => ` AND ${p}`).join('');
      };
      const lines = `SELECT l.created_at AS at, l.id AS seq,
          CASE WHEN t.kind = 'topup' OR (l.transfer_id IS NULL AND l.reason NOT IN ('enrolment', 'enrolment_released', 'plan_sale', 'plan_sale_released', 'renewal')) THEN 'topup'
               WHEN l.transfer_id IS NULL AND l.reason IN ('enrolment', 'plan_sale', 'renewal') THEN 'consumed'
               WHEN l.transfer_id IS NULL THEN 'released'
               WHEN t.kind = 'return' THEN 'returned'
               WHEN l.change > 0 THEN 'received' ELSE 'sent' END AS kind,
          l.product_type, l.change, l.balance_after, l.transfer_id::text, t.state, l.counterpart_id, l.customer_id, t.price_paise, false AS can_decide
        FROM license_ledger l LEFT JOIN key_transfers t ON t.id = l.transfer_id
        WHERE l.user_id = $1${on('l')}`;
      const open = `SELECT t.created_at AS at, 0::bigint AS seq, CASE WHEN t.state = 'pending' THEN 'requested' ELSE 'rejected' END AS kind,
          t.product_type, 0 AS change, NULL::int AS balance_after, t.id::text AS transfer_id, t.state,
          CASE WHEN t.to_user_id = $1 THEN t.from_user_id ELSE t.to_user_id END AS counterpart_id, NULL::int AS customer_id, t.price_paise,
          (t.state = 'pending' AND t.from_user_id = $2) AS can_decide
        FROM key_transfers t WHERE t.kind = 'request' AND t.state <> 'done' AND (t.to_user_id = $1 OR t.from_user_id = $1)${on('t')}`;
      const all = `(${lines} UNION ALL ${open})`;
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${all} h`, params)).rows[0]!.n;
      const rows = await db.query<HistoryRow>(
        `SELECT h.at, h.kind, h.product_type, h.change, h.balance_after, h.transfer_id, h.state, h.counterpart_id,
                NULLIF(trim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')), '') AS counterpart_name, h.customer_id, h.price_paise, h.can_decide
           FROM ${all} h LEFT JOIN users c ON c.id = h.counterpart_id
          ORDER BY h.at DESC, h.seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, filter.limit, filter.offset],
      );
      return { rows: rows.rows, total };
    },
  };
}
export type NetworkRepository = ReturnType<typeof createNetworkRepository>;
