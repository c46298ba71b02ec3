/** Extended warranty plans, sales, claim photos, claims and their history (migration 030). */
import type { ClaimCause, ClaimPayout, ClaimState, WarrantyRules } from '@kisht/domain/warranty';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import type { ClaimEvent, WarrantyClaim, WarrantyListQuery, WarrantyPlan, WarrantySale } from '@kisht/contract/warranty';
import type { Queryable } from '../../db/database.ts';

export interface SaleRow extends WarrantySale {
  org_id: number;
  account_id: number;
  /** The linked customer's language, for the certificate. */
  customer_language: string | null;
  terms: string | null;
}

/** A time as ISO 8601 in UTC, as every other answer gives times. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
const TODAY = `(now() AT TIME ZONE 'Asia/Kolkata')::date`;

/** The state as the dates say it: revoked, else expired (past the cover's last day), else waiting, else in cover. */
const STATE = `CASE WHEN s.revoked_at IS NOT NULL THEN 'revoked' WHEN s.cover_end < ${TODAY} THEN 'expired'
                    WHEN s.cover_start > ${TODAY} THEN 'waiting' ELSE 'in_cover' END`;

const SELECT = `SELECT s.id::int AS id, s.org_id, s.account_id, s.certificate_no, s.plan_id, s.plan_name, s.product_type, s.price_paise,
         s.cover_kind, s.insurer_name, s.rules, s.customer_id, s.first_name, s.last_name, s.email, s.mobile, s.imei, s.brand, s.model,
         s.invoice_value_paise, ${day('s.invoice_date')} AS invoice_date, ${day('s.sale_date')} AS sale_date,
         ${day('s.cover_start')} AS cover_start, ${day('s.cover_end')} AS cover_end, ${STATE} AS state,
         (SELECT count(*)::int FROM warranty_claims k WHERE k.sale_id = s.id AND k.state <> 'rejected') AS claims_used,
         ${iso('s.sold_at')} AS sold_at, ${iso('s.revoked_at')} AS revoked_at, s.revoke_reason, s.retailer_id,
         NULLIF(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS retailer_name,
         c.language AS customer_language, pl.terms
    FROM warranty_sales s LEFT JOIN users u ON u.id = s.retailer_id LEFT JOIN customers c ON c.id = s.customer_id
         LEFT JOIN plans pl ON pl.id = s.plan_id`;

/** The caller's sales: its network's ($1), a mini-retailer only its own ($2). */
const SCOPE = 's.account_id = $1 AND ($2::int IS NULL OR s.retailer_id = $2)';

/** A plan's rules with its deductible bands in order, as JSON (the shape of WarrantyRules). */
const RULES = `json_build_object(
    'cover_kind', r.cover_kind, 'insurer_name', r.insurer_name, 'purchase_window_days', r.purchase_window_days::int,
    'waiting_days', r.waiting_days::int, 'term_months', r.term_months::int, 'brand_warranty_months', r.brand_warranty_months::int,
    'covers_defects', r.covers_defects, 'covers_accidental', r.covers_accidental, 'covers_liquid', r.covers_liquid,
    'deductible_bands', coalesce((SELECT json_agg(json_build_object('from_months', b.from_months::int, 'to_months', b.to_months::int, 'bps', b.bps) ORDER BY b.from_months)
                                    FROM warranty_deductible_bands b WHERE b.plan_id = r.plan_id), '[]'::json),
    'max_claims', r.max_claims::int, 'cover_limit_bps', r.cover_limit_bps)`;

const CLAIM_SELECT = `SELECT s.account_id, s.retailer_id, k.id::int AS id, k.sale_id::int AS sale_id, k.cause, k.imei, k.description, ${day('k.claim_date')} AS claim_date, k.state,
         k.reject_reason, k.assessed_cost_paise, k.cover_limit_paise, k.device_age_months::int AS device_age_months, k.deductible_bps,
         k.deductible_paise, k.payable_paise,
         coalesce((SELECT array_agg(p.id::int ORDER BY p.id) FROM warranty_photos p WHERE p.claim_id = k.id), '{}') AS photo_ids,
         k.raised_by, ${iso('k.raised_at')} AS raised_at, ${iso('k.updated_at')} AS updated_at
    FROM warranty_claims k JOIN warranty_sales s ON s.id = k.sale_id`;

export interface NewSale {
  org_id: number;
  account_id: number;
  retailer_id: number;
  plan_id: number;
  plan_name: string;
  price_paise: number | null;
  rules: WarrantyRules;
  customer_id: number | null;
  first_name: string;
  last_name: string;
  email: string | null;
  mobile: string;
  imei: string;
  brand: string;
  model: string;
  invoice_value_paise: number;
  invoice_date: string;
  sale_date: string;
  certificate_no: string;
  cover_start: string;
  cover_end: string;
}

export interface NewClaim {
  sale_id: number;
  cause: ClaimCause;
  imei: string;
  description: string;
  claim_date: string;
  raised_by: number;
}

/** A claim with the scope of its sale, for the checks before it moves. */
export interface ClaimRow extends Omit<WarrantyClaim, 'events'> {
  account_id: number;
  retailer_id: number;
}

export interface PhotoRow {
  id: number;
  sale_id: number;
  path: string;
  content_type: string;
}

/** The public view of a sale: without the tenant columns and what only the certificate uses. */
export function toSale(row: SaleRow): WarrantySale {
  const { org_id: _org, account_id: _account, customer_language: _language, terms: _terms, ...sale } = row;
  return sale;
}

/** A claim without the scope columns, before its history is added. */
export function toClaim(row: ClaimRow): Omit<WarrantyClaim, 'events'> {
  const { account_id: _account, retailer_id: _retailer, ...claim } = row;
  return claim;
}

export function createWarrantyRepository(db: Queryable) {
  return {
    /** The organisation's active extended warranty plans that have rules, or the one asked for. */
    async plans(orgId: number, planId: number | null = null): Promise<WarrantyPlan[]> {
      const res = await db.query<WarrantyPlan>(
        `SELECT pl.id, pl.name, pl.app_type::int AS app_type, pl.product_id, pr.product_type, pl.validity_days, pl.price_paise, pl.terms, ${RULES} AS rules
           FROM plans pl JOIN products pr ON pr.id = pl.product_id AND pr.active JOIN warranty_rules r ON r.plan_id = pl.id
          WHERE pl.org_id = $1 AND pl.active AND pr.product_type = $2 AND pl.plan_type = $2 AND ($3::int IS NULL OR pl.id = $3)
          ORDER BY pl.price_paise NULLS LAST, pl.id`,
        [orgId, PRODUCT_TYPE.EXTENDED_WARRANTY, planId],
      );
      return res.rows;
    },

    async insertSale(sale: NewSale, q: Queryable): Promise<number> {
      const res = await q.query<{ id: number }>(
        `INSERT INTO warranty_sales (org_id, account_id, retailer_id, plan_id, product_type, plan_name, price_paise, cover_kind, insurer_name, rules,
                                     customer_id, first_name, last_name, email, mobile, imei, brand, model, invoice_value_paise, invoice_date,
                                     sale_date, certificate_no, cover_start, cover_end)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24) RETURNING id::int AS id`,
        [sale.org_id, sale.account_id, sale.retailer_id, sale.plan_id, PRODUCT_TYPE.EXTENDED_WARRANTY, sale.plan_name, sale.price_paise, sale.rules.cover_kind,
          sale.rules.insurer_name, JSON.stringify(sale.rules), sale.customer_id, sale.first_name, sale.last_name, sale.email, sale.mobile, sale.imei,
          sale.brand, sale.model, sale.invoice_value_paise, sale.invoice_date, sale.sale_date, sale.certificate_no, sale.cover_start, sale.cover_end],
      );
      return res.rows[0]!.id;
    },

    /** One sale of the caller's scope (`retailerId`: a mini-retailer's own). */
    async find(accountId: number, retailerId: number | null, id: number, q: Queryable = db): Promise<SaleRow | undefined> {
      return (await q.query<SaleRow>(`${SELECT} WHERE ${SCOPE} AND s.id = $3`, [accountId, retailerId, id])).rows[0];
    },

    async list(accountId: number, retailerId: number | null, query: WarrantyListQuery & { page: number; limit: number }, certificate: string | null): Promise<{ rows: SaleRow[]; total: number }> {
      const params: unknown[] = [accountId, retailerId];
      const where = [SCOPE];
      const search = query.search?.trim();
      if (search) {
        const digits = search.replace(/[\s-]/g, '');
        if (certificate) where.push(`s.certificate_no = $${params.push(certificate)}`);
        else if (/^\d{15}$/.test(digits)) where.push(`s.imei = $${params.push(digits)}`);
        else if (/^\+?\d{4,12}$/.test(digits)) where.push(`s.mobile LIKE $${params.push(`%${digits.replace(/^\+/, '')}`)}`);
        else where.push(`(s.first_name || ' ' || s.last_name) ILIKE $${params.push(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
      }
      if (query.state) where.push(`${STATE} = $${params.push(query.state)}`);
      const filter = where.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM warranty_sales s WHERE ${filter}`, params)).rows[0]!.n;
      const rows = (await db.query<SaleRow>(
        `${SELECT} WHERE ${filter} ORDER BY s.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, (query.page - 1) * query.limit],
      )).rows;
      return { rows, total };
    },

    /** The caller's sales for a financed customer: linked to it, or sold to its mobile number; newest first. */
    async ofCustomer(accountId: number, retailerId: number | null, customerId: number, mobile: string): Promise<SaleRow[]> {
      return (await db.query<SaleRow>(`${SELECT} WHERE ${SCOPE} AND (s.customer_id = $3 OR s.mobile = $4) ORDER BY s.id DESC LIMIT 100`,
        [accountId, retailerId, customerId, mobile])).rows;
    },

    /**
     * Locks a sale for a change that depends on its claims (a claim raised, a revocation), and says whether it is
     * revoked and how many claims count against its limit, as of the lock.
     */
    async lockSale(id: number, q: Queryable): Promise<{ revoked: boolean; claims_used: number; claims_ever: number }> {
      const locked = (await q.query<{ revoked: boolean }>('SELECT revoked_at IS NOT NULL AS revoked FROM warranty_sales WHERE id = $1 FOR UPDATE', [id])).rows[0]!;
      const counts = (await q.query<{ used: number; ever: number }>(
        `SELECT count(*) FILTER (WHERE state <> 'rejected')::int AS used, count(*)::int AS ever FROM warranty_claims WHERE sale_id = $1`, [id],
      )).rows[0]!;
      return { revoked: locked.revoked, claims_used: counts.used, claims_ever: counts.ever };
    },

    /** Revokes a sale (locked by lockSale) not revoked yet; false when it already was. */
    async revoke(id: number, by: number, reason: string, q: Queryable): Promise<boolean> {
      const res = await q.query('UPDATE warranty_sales SET revoked_at = now(), revoked_by = $2, revoke_reason = $3 WHERE id = $1 AND revoked_at IS NULL', [id, by, reason]);
      return (res.rowCount ?? 0) > 0;
    },

    /** Photos uploaded for the sale that no claim has taken yet. */
    async waitingPhotos(saleId: number, q: Queryable): Promise<number> {
      return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM warranty_photos WHERE sale_id = $1 AND claim_id IS NULL', [saleId])).rows[0]!.n;
    },

    async insertPhoto(photo: { sale_id: number; path: string; content_type: string; bytes: number; uploaded_by: number }, q: Queryable): Promise<number> {
      const res = await q.query<{ id: number }>(
        'INSERT INTO warranty_photos (sale_id, path, content_type, bytes, uploaded_by) VALUES ($1, $2, $3, $4, $5) RETURNING id::int AS id',
        [photo.sale_id, photo.path, photo.content_type, photo.bytes, photo.uploaded_by],
      );
      return res.rows[0]!.id;
    },

    /** A photo of a sale in the caller's scope. */
    async photo(accountId: number, retailerId: number | null, id: number): Promise<PhotoRow | undefined> {
      return (await db.query<PhotoRow>(
        `SELECT p.id::int AS id, p.sale_id::int AS sale_id, p.path, p.content_type FROM warranty_photos p JOIN warranty_sales s ON s.id = p.sale_id
          WHERE ${SCOPE} AND p.id = $3`, [accountId, retailerId, id],
      )).rows[0];
    },

    /** Of these photos, those of the sale that no claim has taken, locked for the claim being raised. */
    async freePhotos(saleId: number, ids: number[], q: Queryable): Promise<number[]> {
      return (await q.query<{ id: number }>(
        'SELECT id::int AS id FROM warranty_photos WHERE sale_id = $1 AND id = ANY($2::bigint[]) AND claim_id IS NULL FOR UPDATE', [saleId, ids],
      )).rows.map((r) => r.id);
    },

    async insertClaim(claim: NewClaim, photoIds: number[], q: Queryable): Promise<number> {
      const res = await q.query<{ id: number }>(
        `INSERT INTO warranty_claims (sale_id, cause, imei, description, claim_date, raised_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::int AS id`,
        [claim.sale_id, claim.cause, claim.imei, claim.description, claim.claim_date, claim.raised_by],
      );
      const id = res.rows[0]!.id;
      await q.query('UPDATE warranty_photos SET claim_id = $1 WHERE id = ANY($2::bigint[])', [id, photoIds]);
      await q.query(`INSERT INTO warranty_claim_events (claim_id, from_state, to_state, by_user) VALUES ($1, NULL, 'intimated', $2)`, [id, claim.raised_by]);
      return id;
    },

    /** One claim whose sale is in the caller's scope. */
    async findClaim(accountId: number, retailerId: number | null, id: number): Promise<ClaimRow | undefined> {
      return (await db.query<ClaimRow>(`${CLAIM_SELECT} WHERE ${SCOPE} AND k.id = $3`, [accountId, retailerId, id])).rows[0];
    },

    /** Locks a claim for a move, in the caller's transaction, and gives its state as of the lock. */
    async lockClaim(id: number, q: Queryable): Promise<ClaimState> {
      return (await q.query<{ state: ClaimState }>('SELECT state FROM warranty_claims WHERE id = $1 FOR UPDATE', [id])).rows[0]!.state;
    },

    /** Moves a claim (locked by findClaim) and writes the move in its history. */
    async moveClaim(
      id: number,
      move: { from: ClaimState; to: ClaimState; by: number; note: string | null; payout: (ClaimPayout & { assessed_cost_paise: number }) | null },
      q: Queryable,
    ): Promise<void> {
      const p = move.payout;
      await q.query(
        `UPDATE warranty_claims SET state = $2, updated_at = now(),
                reject_reason = CASE WHEN $2 = 'rejected' THEN $3 ELSE reject_reason END,
                assessed_cost_paise = coalesce($4, assessed_cost_paise), cover_limit_paise = coalesce($5, cover_limit_paise),
                device_age_months = coalesce($6, device_age_months), deductible_bps = coalesce($7, deductible_bps),
                deductible_paise = coalesce($8, deductible_paise), payable_paise = coalesce($9, payable_paise)
          WHERE id = $1`,
        [id, move.to, move.note, p?.assessed_cost_paise ?? null, p?.cover_limit_paise ?? null, p?.device_age_months ?? null, p?.deductible_bps ?? null,
          p?.deductible_paise ?? null, p?.payable_paise ?? null],
      );
      await q.query('INSERT INTO warranty_claim_events (claim_id, from_state, to_state, by_user, note) VALUES ($1, $2, $3, $4, $5)', [id, move.from, move.to, move.by, move.note]);
    },

    /** The claims of these sales, oldest first, each with its history. */
    async claimsOf(saleIds: number[]): Promise<WarrantyClaim[]> {
      if (saleIds.length === 0) return [];
      const rows = (await db.query<ClaimRow>(`${CLAIM_SELECT} WHERE k.sale_id = ANY($1::bigint[]) ORDER BY k.id`, [saleIds])).rows;
      if (rows.length === 0) return [];
      const claims = rows.map(toClaim);
      const events = (await db.query<ClaimEvent & { claim_id: number }>(
        `SELECT e.claim_id::int AS claim_id, e.from_state, e.to_state, e.by_user AS by_user_id,
                NULLIF(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS by_name, ${iso('e.at')} AS at, e.note
           FROM warranty_claim_events e LEFT JOIN users u ON u.id = e.by_user WHERE e.claim_id = ANY($1::bigint[]) ORDER BY e.id`,
        [claims.map((c) => c.id)],
      )).rows;
      return claims.map((claim) => ({
        ...claim,
        events: events.filter((e) => e.claim_id === claim.id).map(({ claim_id: _claim, ...event }) => event),
      }));
    },
  };
}
export type WarrantyRepository = ReturnType<typeof createWarrantyRepository>;
