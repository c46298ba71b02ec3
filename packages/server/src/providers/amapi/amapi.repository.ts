/** The enterprise each organisation bound through the Android Management API, and sign-ups in progress. */
import type { Queryable } from '../../db/database.ts';

export function createAmapiRepository(db: Queryable) {
  return {
    async addSignup(row: { state_hash: string; org_id: number; created_by: number; signup_url_name: string; ttl_minutes: number }): Promise<void> {
      await db.query(
        `INSERT INTO amapi_signups (state_hash, org_id, created_by, signup_url_name, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(mins => $5))`,
        [row.state_hash, row.org_id, row.created_by, row.signup_url_name, row.ttl_minutes],
      );
    },
    /** The sign-up if its state is unused and unexpired, taken once (inside the caller's transaction). */
    async takeSignup(stateHash: string, q: Queryable) {
      const res = await q.query<{ org_id: number; created_by: number; signup_url_name: string }>(
        `UPDATE amapi_signups SET used_at = now() WHERE state_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING org_id, created_by, signup_url_name`,
        [stateHash],
      );
      return res.rows[0];
    },
    async saveEnterprise(row: { org_id: number; enterprise_name: string; created_by: number }, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO amapi_enterprises (org_id, enterprise_name, created_by) VALUES ($1, $2, $3)
         ON CONFLICT (org_id) DO UPDATE SET enterprise_name = EXCLUDED.enterprise_name, created_by = EXCLUDED.created_by, created_at = now()`,
        [row.org_id, row.enterprise_name, row.created_by],
      );
    },
    async enterprise(orgId: number): Promise<string | null> {
      return (await db.query<{ enterprise_name: string }>('SELECT enterprise_name FROM amapi_enterprises WHERE org_id = $1', [orgId])).rows[0]?.enterprise_name ?? null;
    },
    async orgName(orgId: number): Promise<string> {
      return (await db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [orgId])).rows[0]?.name ?? 'Organisation';
    },
  };
}
export type AmapiRepository = ReturnType<typeof createAmapiRepository>;
