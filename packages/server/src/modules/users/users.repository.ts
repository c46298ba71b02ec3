/** Retailer accounts. The only place that reads or writes the users and signup_requests tables. */
import type { Queryable } from '../../db/database.ts';
import type { LockAccess, UserAccess } from '@kisht/domain/constants';

export interface UserRow {
  id: number;
  org_id: number;
  account_id: number | null;
  parent_id: number | null;
  user_type: 'retailer' | 'miniretailer';
  first_name: string;
  last_name: string;
  mobile: string;
  email: string | null;
  shop_name: string | null;
  birthday: string | null;
  active: boolean;
  mpin_hash: string | null;
  mpin_failed: number;
  user_access: UserAccess;
  lock_access: LockAccess;
}

// active: the user's own switch and every one above it in the network (a blocked member blocks its subtree).
const COLUMNS = `id, org_id, account_id, parent_id, user_type, first_name, last_name, mobile, email, shop_name,
  to_char(birthday, 'YYYY-MM-DD') AS birthday, NOT EXISTS (SELECT 1 FROM users a WHERE a.path @> users.path AND NOT a.active) AS active,
  mpin_hash, mpin_failed, user_access, lock_access`;

export interface NewUser {
  org_id: number;
  user_type: 'retailer' | 'miniretailer';
  parent_id?: number | null;
  account_id?: number | null;
  first_name: string;
  last_name: string;
  mobile: string;
  email?: string | null;
  shop_name?: string | null;
  city?: string | null;
  birthday?: string | null;
}

export function createUsersRepository(db: Queryable) {
  return {
    async findByMobile(mobile: string, q: Queryable = db): Promise<UserRow | undefined> {
      return (await q.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE mobile = $1`, [mobile])).rows[0];
    },
    async findById(id: number, q: Queryable = db): Promise<UserRow | undefined> {
      return (await q.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id])).rows[0];
    },
    async insert(user: NewUser, q: Queryable = db): Promise<UserRow> {
      // A retailer heads its own account; a mini-retailer belongs to its parent's account. Its place in the
      // network (path): its parent's path and its own id, known before the row is written.
      const res = await q.query<UserRow>(
        `WITH fresh AS (SELECT nextval(pg_get_serial_sequence('users', 'id'))::int AS id)
         INSERT INTO users (id, org_id, user_type, parent_id, account_id, first_name, last_name, mobile, email, shop_name, city, birthday, path)
         SELECT fresh.id, $1, $2, $3, coalesce($4, fresh.id), $5, $6, $7, $8, $9, $10, $11,
                coalesce((SELECT p.path FROM users p WHERE p.id = $3), ''::ltree) || text2ltree(fresh.id::text)
           FROM fresh RETURNING id`,
        [user.org_id, user.user_type, user.parent_id ?? null, user.account_id ?? null, user.first_name, user.last_name,
          user.mobile, user.email ?? null, user.shop_name ?? null, user.city ?? null, user.birthday ?? null],
      );
      const id = res.rows[0]!.id;
      return (await this.findById(id, q))!;
    },
    async setMpin(id: number, hash: string, q: Queryable = db): Promise<void> {
      await q.query('UPDATE users SET mpin_hash = $2, mpin_failed = 0 WHERE id = $1', [id, hash]);
    },
    /**
     * Takes one MPIN try before the MPIN is checked, in one statement, so parallel guesses cannot all pass
     * under the limit. Returns the tries used including this one, or null when none are left.
     */
    async takeMpinTry(id: number, max: number, q: Queryable = db): Promise<number | null> {
      const res = await q.query<{ mpin_failed: number }>(
        'UPDATE users SET mpin_failed = mpin_failed + 1 WHERE id = $1 AND mpin_failed < $2 RETURNING mpin_failed',
        [id, max],
      );
      return res.rows[0]?.mpin_failed ?? null;
    },
    async clearMpinFailures(id: number, q: Queryable = db): Promise<void> {
      await q.query('UPDATE users SET mpin_failed = 0 WHERE id = $1 AND mpin_failed <> 0', [id]);
    },
    async setAccess(id: number, column: 'user_access' | 'lock_access', values: Record<string, '0' | '1'>, q: Queryable = db) {
      const res = await q.query(`UPDATE users SET ${column} = ${column} || $2::jsonb WHERE id = $1`, [id, JSON.stringify(values)]);
      return res.rowCount > 0;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;

export interface SignupRow {
  id: number;
  org_id: number;
  first_name: string;
  last_name: string;
  mobile: string;
  shop_name: string;
  city: string;
  email: string | null;
  status: 'pending' | 'approved' | 'rejected';
  created_at: Date;
}

export function createSignupRepository(db: Queryable) {
  return {
    /** Returns false when a request for the number is already pending. */
    async insert(row: Omit<SignupRow, 'id' | 'status' | 'created_at'> & { ip: string | null }): Promise<boolean> {
      const res = await db.query(
        `INSERT INTO signup_requests (org_id, first_name, last_name, mobile, shop_name, city, email, ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (mobile) WHERE status = 'pending' DO NOTHING`,
        [row.org_id, row.first_name, row.last_name, row.mobile, row.shop_name, row.city, row.email, row.ip],
      );
      return res.rowCount > 0;
    },
    async countRecentFrom(ip: string): Promise<number> {
      const res = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM signup_requests WHERE ip = $1 AND created_at > now() - interval '1 hour'`, [ip]);
      return res.rows[0]!.n;
    },
    async listPending(): Promise<SignupRow[]> {
      return (await db.query<SignupRow>(`SELECT * FROM signup_requests WHERE status = 'pending' ORDER BY id`)).rows;
    },
    async findPendingForUpdate(id: number, q: Queryable): Promise<SignupRow | undefined> {
      return (await q.query<SignupRow>(`SELECT * FROM signup_requests WHERE id = $1 AND status = 'pending' FOR UPDATE`, [id])).rows[0];
    },
    async decide(id: number, status: 'approved' | 'rejected', userId: number | null, q: Queryable): Promise<void> {
      await q.query('UPDATE signup_requests SET status = $2, user_id = $3, decided_at = now() WHERE id = $1', [id, status, userId]);
    },
  };
}
export type SignupRepository = ReturnType<typeof createSignupRepository>;
