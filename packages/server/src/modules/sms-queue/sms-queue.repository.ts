/** The sms_queue table: messages waiting to go out, claimed by one worker at a time, retried, then sent or failed. */
import type { Queryable } from '../../db/database.ts';

export interface QueuedSms {
  to: string;
  body: string;
  purpose: string;
  /** After this many seconds the message is not worth sending any more (an expired OTP). */
  discardAfterSeconds?: number;
}

export interface ClaimedSms {
  id: number;
  recipient: string;
  body: string;
  purpose: string;
  /** This attempt included. */
  tries: number;
}

export type SmsStatus = 'pending' | 'sending' | 'sent' | 'failed';

export function createSmsQueueRepository(db: Queryable) {
  return {
    /**
     * Queues a message in the caller's transaction. With `deliver` false the very same statement runs and
     * writes no row: a request that has nothing to send spends what one that does would.
     */
    async add(message: QueuedSms, deliver: boolean, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO sms_queue (recipient, body, purpose, discard_after)
         SELECT $1, $2, $3, now() + make_interval(secs => $4) WHERE $5::boolean`,
        [message.to, message.body, message.purpose, message.discardAfterSeconds ?? null, deliver],
      );
    },

    /**
     * Takes up to `limit` messages that are due (or whose claim ran out) for this claim; rows another node
     * holds are skipped, not waited for, so two nodes never take the same message.
     */
    async claim(claimId: string, limit: number, leaseSeconds: number, maxTries: number): Promise<ClaimedSms[]> {
      const res = await db.query<ClaimedSms>(
        `UPDATE sms_queue q
            SET status = 'sending', tries = q.tries + 1, claim_id = $1, claimed_until = now() + make_interval(secs => $3)
           FROM (SELECT id FROM sms_queue
                  WHERE ((status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND claimed_until <= now()))
                    AND tries < $4 AND (discard_after IS NULL OR discard_after > now())
                  ORDER BY next_attempt_at, id
                  LIMIT $2
                  FOR UPDATE SKIP LOCKED) due
          WHERE q.id = due.id
        RETURNING q.id::int AS id, q.recipient, q.body, q.purpose, q.tries`,
        [claimId, limit, leaseSeconds, maxTries],
      );
      return res.rows;
    },

    /** The vendor took the message. False when the claim was lost meanwhile (it ran out and another node took it). */
    async markSent(id: number, claimId: string): Promise<boolean> {
      const res = await db.query(
        `UPDATE sms_queue SET status = 'sent', body = NULL, claim_id = NULL, claimed_until = NULL, last_error = NULL, finished_at = now()
          WHERE id = $1 AND claim_id = $2`,
        [id, claimId],
      );
      return res.rowCount > 0;
    },

    /** An attempt failed: try again after `retryInSeconds`, or give up when the tries are used up. */
    async markFailedTry(id: number, claimId: string, maxTries: number, retryInSeconds: number, error: string): Promise<SmsStatus | null> {
      const res = await db.query<{ status: SmsStatus }>(
        `UPDATE sms_queue
            SET status = CASE WHEN tries >= $3 THEN 'failed' ELSE 'pending' END,
                body = CASE WHEN tries >= $3 THEN NULL ELSE body END,
                finished_at = CASE WHEN tries >= $3 THEN now() END,
                next_attempt_at = now() + make_interval(secs => $4),
                claim_id = NULL, claimed_until = NULL, last_error = $5
          WHERE id = $1 AND claim_id = $2
        RETURNING status`,
        [id, claimId, maxTries, retryInSeconds, error.slice(0, 500)],
      );
      return res.rows[0]?.status ?? null;
    },

    /**
     * Ends what can no longer go out: past its discard time, or with every try used up by claims that ran
     * out (a node died mid-send). Returns how many.
     */
    async giveUp(maxTries: number): Promise<number> {
      const res = await db.query(
        `UPDATE sms_queue
            SET status = 'failed', body = NULL, claim_id = NULL, claimed_until = NULL, finished_at = now(),
                last_error = CASE WHEN discard_after <= now() THEN 'expired before delivery' ELSE coalesce(last_error, 'no answer from the sender') END
          WHERE (status = 'pending' OR (status = 'sending' AND claimed_until <= now()))
            AND (tries >= $1 OR discard_after <= now())`,
        [maxTries],
      );
      return res.rowCount;
    },

    /** Forgets finished messages older than `days`. */
    async purgeFinished(days: number): Promise<number> {
      const res = await db.query(`DELETE FROM sms_queue WHERE status IN ('sent', 'failed') AND finished_at < now() - make_interval(days => $1)`, [days]);
      return res.rowCount;
    },
  };
}
export type SmsQueueRepository = ReturnType<typeof createSmsQueueRepository>;
