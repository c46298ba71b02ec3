/** OTP requests and the send log that the rate limits count. */
import type { Queryable } from '../../db/database.ts';
import type { OtpPurpose } from '@kisht/domain/constants';

export interface OtpRow {
  id: string;
  purpose: OtpPurpose;
  mobile: string;
  user_id: number | null;
  requested_by: number | null;
  code_hash: string;
  attempts: number;
  resends: number;
  expires_at: Date;
  last_sent_at: Date;
  consumed_at: Date | null;
}

export function createOtpRepository(db: Queryable) {
  return {
    /**
     * Serialises sends to one number and from one address until the transaction ends, so parallel
     * requests cannot all count the same history and slip past the limits. Always number, then address.
     */
    async lockSender(mobile: string, ip: string | null, q: Queryable): Promise<void> {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`otp-mobile:${mobile}`]);
      if (ip) await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`otp-ip:${ip}`]);
    },
    /** Sends in the last hour to a number and from an address. */
    async recentSends(mobile: string, ip: string | null, q: Queryable = db) {
      const res = await q.query<{ by_mobile: number; by_ip: number; oldest_mobile: Date | null; oldest_ip: Date | null }>(
        `SELECT
           count(*) FILTER (WHERE mobile = $1)::int AS by_mobile,
           count(*) FILTER (WHERE ip = $2)::int AS by_ip,
           min(sent_at) FILTER (WHERE mobile = $1) AS oldest_mobile,
           min(sent_at) FILTER (WHERE ip = $2) AS oldest_ip
         FROM otp_sends WHERE (mobile = $1 OR ip = $2) AND sent_at > now() - interval '1 hour'`,
        [mobile, ip],
      );
      return res.rows[0]!;
    },
    async create(
      row: { id: string; purpose: OtpPurpose; mobile: string; user_id: number | null; requested_by: number | null; code_hash: string; ip: string | null; ttlSeconds: number },
      q: Queryable = db,
    ): Promise<void> {
      await q.query(
        `INSERT INTO otp_requests (id, purpose, mobile, user_id, requested_by, code_hash, ip, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
        [row.id, row.purpose, row.mobile, row.user_id, row.requested_by, row.code_hash, row.ip, row.ttlSeconds],
      );
    },
    async recordSend(requestId: string, mobile: string, ip: string | null, q: Queryable = db): Promise<void> {
      await q.query('INSERT INTO otp_sends (request_id, mobile, ip) VALUES ($1, $2, $3)', [requestId, mobile, ip]);
    },
    async findForUpdate(id: string, q: Queryable): Promise<(OtpRow & { now: Date }) | undefined> {
      return (await q.query<OtpRow & { now: Date }>('SELECT *, now() AS now FROM otp_requests WHERE id = $1 FOR UPDATE', [id])).rows[0];
    },
    async recordFailure(id: string, q: Queryable): Promise<number> {
      const res = await q.query<{ attempts: number }>('UPDATE otp_requests SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts', [id]);
      return res.rows[0]!.attempts;
    },
    async consume(id: string, q: Queryable): Promise<void> {
      await q.query('UPDATE otp_requests SET consumed_at = now() WHERE id = $1', [id]);
    },
    /** A resend issues a new code for the same request; the old code stops working, the attempt count stays. */
    async replaceCode(id: string, codeHash: string, ttlSeconds: number, q: Queryable): Promise<void> {
      await q.query(
        `UPDATE otp_requests SET code_hash = $2, resends = resends + 1, last_sent_at = now(),
           expires_at = now() + make_interval(secs => $3) WHERE id = $1`,
        [id, codeHash, ttlSeconds],
      );
    },
  };
}
export type OtpRepository = ReturnType<typeof createOtpRepository>;
