/** Anti-hacking sales and their activation codes (migration 029). */
import type { AntihackingListQuery, AntihackingSale } from '@kisht/contract/plans';
import type { Queryable } from '../../db/database.ts';

export interface SaleRow extends AntihackingSale {
  org_id: number;
  account_id: number;
  code: string;
  install_id: string | null;
}

/** A time as ISO 8601 in UTC, as every other answer gives times. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The state as the times say it: revoked, else expired, else activated, else issued. */
const STATE = `CASE WHEN s.revoked_at IS NOT NULL THEN 'revoked' WHEN s.expires_at <= now() THEN 'expired'
                    WHEN s.activated_at IS NOT NULL THEN 'activated' ELSE 'issued' END`;

const SELECT = `SELECT s.id::int AS id, s.org_id, s.account_id, s.plan_id, s.plan_name, s.app_type::int AS app_type, s.product_type,
         s.first_name, s.last_name, s.email, s.mobile, s.code, s.install_id,
         CASE WHEN s.revoked_at IS NULL AND s.expires_at > now() THEN s.code END AS antihacking_code,
         ${STATE} AS state, ${iso('s.issued_at')} AS issued_at, ${iso('s.expires_at')} AS expires_at, ${iso('s.activated_at')} AS activated_at,
         s.device_model, ${iso('s.revoked_at')} AS revoked_at, s.revoke_reason, s.retailer_id,
         NULLIF(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS retailer_name
    FROM antihacking_sales s LEFT JOIN users u ON u.id = s.retailer_id`;

export interface NewSale {
  org_id: number;
  account_id: number;
  retailer_id: number;
  plan_id: number;
  product_type: number;
  app_type: number;
  plan_name: string;
  price_paise: number | null;
  first_name: string;
  last_name: string;
  email: string | null;
  mobile: string;
  code: string;
  validity_days: number;
}

/** The public view of a row: without the tenant columns, the raw code and the installation id. */
export function toSale(row: SaleRow): AntihackingSale {
  const { org_id: _org, account_id: _account, code: _code, install_id: _install, ...sale } = row;
  return sale;
}

export function createAntihackingRepository(db: Queryable) {
  return {
    async insert(sale: NewSale, q: Queryable): Promise<number> {
      const res = await q.query<{ id: number }>(
        `INSERT INTO antihacking_sales (org_id, account_id, retailer_id, plan_id, product_type, app_type, plan_name, price_paise,
                                        first_name, last_name, email, mobile, code, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now() + make_interval(days => $14)) RETURNING id::int AS id`,
        [sale.org_id, sale.account_id, sale.retailer_id, sale.plan_id, sale.product_type, sale.app_type, sale.plan_name, sale.price_paise,
          sale.first_name, sale.last_name, sale.email, sale.mobile, sale.code, sale.validity_days],
      );
      return res.rows[0]!.id;
    },

    /** One sale of the account; `retailerId` narrows it to one seller's (a mini-retailer's own). */
    async find(accountId: number, retailerId: number | null, id: number, q: Queryable = db): Promise<SaleRow | undefined> {
      return (await q.query<SaleRow>(`${SELECT} WHERE s.account_id = $1 AND ($2::int IS NULL OR s.retailer_id = $2) AND s.id = $3`, [accountId, retailerId, id])).rows[0];
    },

    async list(accountId: number, retailerId: number | null, query: AntihackingListQuery & { page: number; limit: number }): Promise<{ rows: SaleRow[]; total: number }> {
      const params: unknown[] = [accountId, retailerId];
      const where = ['s.account_id = $1', '($2::int IS NULL OR s.retailer_id = $2)'];
      const search = query.search?.trim();
      if (search) {
        const digits = search.replace(/[\s-]/g, '');
        if (/^\d{16}$/.test(digits)) where.push(`s.code = $${params.push(digits)}`);
        else if (/^\+?\d{4,12}$/.test(digits)) where.push(`s.mobile LIKE $${params.push(`%${digits.replace(/^\+/, '')}`)}`);
        else where.push(`(s.first_name || ' ' || s.last_name) ILIKE $${params.push(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
      }
      if (query.state) where.push(`${STATE} = $${params.push(query.state)}`);
      const filter = where.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM antihacking_sales s WHERE ${filter}`, params)).rows[0]!.n;
      const rows = (await db.query<SaleRow>(
        `${SELECT} WHERE ${filter} ORDER BY s.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, (query.page - 1) * query.limit],
      )).rows;
      return { rows, total };
    },

    /** The sale a code names, locked for the activation's transaction. */
    async forActivation(code: string, q: Queryable): Promise<SaleRow | undefined> {
      return (await q.query<SaleRow>(`${SELECT} WHERE s.code = $1 FOR UPDATE OF s`, [code])).rows[0];
    },

    /** Binds the sale (locked by forActivation) to the installation; returns when, as every answer gives times. */
    async activate(id: number, installId: string, deviceModel: string | null, q: Queryable): Promise<string> {
      const res = await q.query<{ at: string }>(
        `UPDATE antihacking_sales SET activated_at = now(), install_id = $2, device_model = $3 WHERE id = $1 RETURNING ${iso('activated_at')} AS at`,
        [id, installId, deviceModel],
      );
      return res.rows[0]!.at;
    },

    /**
     * Revokes a sale not revoked yet: null when it was; else whether it had been activated, as of the row lock the
     * UPDATE takes (an activation committed meanwhile is seen).
     */
    async revoke(id: number, by: number, reason: string, q: Queryable): Promise<{ activated: boolean } | null> {
      const res = await q.query<{ activated: boolean }>(
        `UPDATE antihacking_sales SET revoked_at = now(), revoked_by = $2, revoke_reason = $3 WHERE id = $1 AND revoked_at IS NULL
         RETURNING activated_at IS NOT NULL AS activated`,
        [id, by, reason],
      );
      return res.rows[0] ?? null;
    },

    /** Refused activations from this address in the last window (wrong code or wrong mobile). */
    async recentFailures(ip: string, windowSeconds: number): Promise<number> {
      const res = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM antihacking_activation_failures WHERE ip = $1 AND at > now() - make_interval(secs => $2)`, [ip, windowSeconds],
      );
      return res.rows[0]!.n;
    },
    async recordFailure(ip: string): Promise<void> {
      // The address's rows older than a day no longer count for anything: they go as new ones come.
      await db.query(
        `WITH old AS (DELETE FROM antihacking_activation_failures WHERE ip = $1 AND at < now() - interval '1 day')
         INSERT INTO antihacking_activation_failures (ip) VALUES ($1)`, [ip],
      );
    },
  };
}
export type AntihackingRepository = ReturnType<typeof createAntihackingRepository>;
