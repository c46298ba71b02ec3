/** The append-only audit log: rows are written and read, never changed (the table's triggers refuse it). */
import type { Queryable } from '../../db/database.ts';

export type AuditActor = 'user' | 'system' | 'operator' | 'anonymous';

export interface AuditRecord {
  actor: AuditActor;
  orgId: number | null;
  accountId: number | null;
  userId: number | null;
  action: string;
  status: number | null;
  errorCode?: string | null;
  method?: string | null;
  route?: string | null;
  customerId?: number | null;
  targets?: Record<string, unknown>;
  ip?: string | null;
  userAgent?: string | null;
  client?: Record<string, string>;
}

/** The user a sign-in attempt is about, with their network. */
export interface AuditSubject {
  user_id: number;
  org_id: number;
  account_id: number;
}

export interface AuditRow {
  id: number;
  at: Date;
  actor: AuditActor;
  org_id: number | null;
  account_id: number | null;
  user_id: number | null;
  user_name: string | null;
  action: string;
  status: number | null;
  error_code: string | null;
  method: string | null;
  route: string | null;
  customer_id: number | null;
  customer_name: string | null;
  targets: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
  client: Record<string, string>;
}

export interface AuditFilter {
  /** One action, or every action of a group when it ends with a dot. */
  action?: string;
  /** India dates, both included. */
  from?: string;
  to?: string;
}

// Names come from rows of the same network only: a customer id another network's caller sent is shown bare.
// `customerRule` narrows the customers further to what the reader may see (a mini-retailer: its own).
const select = (customerRule = 'TRUE') => `SELECT a.id::int AS id, a.at, a.actor, a.org_id, a.account_id, a.user_id,
         NULLIF(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS user_name,
         a.action, a.status, a.error_code, a.method, a.route, a.customer_id,
         NULLIF(trim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')), '') AS customer_name,
         a.targets, a.ip, a.user_agent, a.client
    FROM audit_log a
    LEFT JOIN users u ON u.id = a.user_id AND u.account_id IS NOT DISTINCT FROM a.account_id
    LEFT JOIN customers c ON c.id = a.customer_id AND c.account_id IS NOT DISTINCT FROM a.account_id AND ${customerRule}`;

function addFilter(filter: AuditFilter, where: string[], params: unknown[]): void {
  if (filter.action?.endsWith('.')) where.push(`starts_with(a.action, $${params.push(filter.action)})`);
  else if (filter.action) where.push(`a.action = $${params.push(filter.action)}`);
  // Midnight in India of the first day, and of the day after the last.
  if (filter.from) where.push(`a.at >= ($${params.push(filter.from)}::date)::timestamp AT TIME ZONE 'Asia/Kolkata'`);
  if (filter.to) where.push(`a.at < ($${params.push(filter.to)}::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'`);
}

export function createAuditRepository(db: Queryable) {
  return {
    async record(entry: AuditRecord, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO audit_log (actor, org_id, account_id, user_id, action, status, error_code, method, route, customer_id, targets, ip, user_agent, client)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          entry.actor, entry.orgId, entry.accountId, entry.userId, entry.action, entry.status, entry.errorCode ?? null, entry.method ?? null, entry.route ?? null,
          entry.customerId ?? null, JSON.stringify(entry.targets ?? {}), entry.ip ?? null, entry.userAgent ?? null, JSON.stringify(entry.client ?? {}),
        ],
      );
    },

    /** Who an OTP request belongs to (null for a number without an account). */
    async subjectOfOtpRequest(requestId: string): Promise<AuditSubject | undefined> {
      const res = await db.query<AuditSubject>(
        `SELECT u.id AS user_id, u.org_id, u.account_id FROM otp_requests o JOIN users u ON u.id = o.user_id WHERE o.id = $1`,
        [requestId],
      );
      return res.rows[0];
    },

    async subjectOfMobile(mobile: string): Promise<AuditSubject | undefined> {
      const res = await db.query<AuditSubject>('SELECT id AS user_id, org_id, account_id FROM users WHERE mobile = $1', [mobile]);
      return res.rows[0];
    },

    /**
     * One page of a network's log (or of one user's entries), newest first. A mini-retailer's page names only
     * its own customers: a refused request for the parent's customer shows the id it sent, never the name.
     */
    async list(scope: { orgId: number; accountId: number; userId: number | null; foreign?: boolean }, filter: AuditFilter & { limit: number; offset: number }): Promise<{ rows: AuditRow[]; total: number }> {
      const params: unknown[] = [scope.orgId, scope.accountId];
      const where = ['a.org_id = $1', 'a.account_id = $2'];
      if (scope.userId !== null) where.push(`a.user_id = $${params.push(scope.userId)}`);
      // A member heading another network, read by an ancestor: its sign-ins, sessions and network and key
      // actions only; its customers' activity (and their names) stays its own.
      if (scope.foreign) where.push(`split_part(a.action, '.', 1) IN ('auth', 'session', 'network', 'keys')`);
      addFilter(filter, where, params);
      const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log a WHERE ${where.join(' AND ')}`, params);
      const rule = scope.foreign ? 'FALSE' : scope.userId === null ? 'TRUE' : 'c.retailer_id = $3';
      const rows = await db.query<AuditRow>(
        `${select(rule)} WHERE ${where.join(' AND ')} ORDER BY a.at DESC, a.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, filter.limit, filter.offset],
      );
      return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
    },

    /** Every row of a period (optionally one organisation), oldest first, a page at a time after `afterId`. */
    async exportPage(filter: AuditFilter & { orgId?: number; afterId: number; limit: number }): Promise<AuditRow[]> {
      const params: unknown[] = [filter.afterId];
      const where = ['a.id > $1'];
      if (filter.orgId !== undefined) where.push(`a.org_id = $${params.push(filter.orgId)}`);
      addFilter(filter, where, params);
      const res = await db.query<AuditRow>(`${select()} WHERE ${where.join(' AND ')} ORDER BY a.id LIMIT $${params.push(filter.limit)}`, params);
      return res.rows;
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
