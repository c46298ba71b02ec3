/** The development SMS outbox table. */
import type { Queryable } from '../../db/database.ts';

export interface OutboxRow {
  id: number;
  recipient: string;
  body: string;
  purpose: string | null;
  created_at: Date;
}

export function createSmsOutboxRepository(db: Queryable) {
  return {
    async add(recipient: string, body: string, purpose: string): Promise<void> {
      await db.query('INSERT INTO sms_outbox (recipient, body, purpose) VALUES ($1, $2, $3)', [recipient, body, purpose]);
    },
    async latest(recipient: string | undefined, limit: number): Promise<OutboxRow[]> {
      const res = await db.query<OutboxRow>(
        `SELECT id, recipient, body, purpose, created_at FROM sms_outbox
          WHERE ($1::text IS NULL OR recipient = $1) ORDER BY id DESC LIMIT $2`,
        [recipient ?? null, limit],
      );
      return res.rows;
    },
  };
}
export type SmsOutboxRepository = ReturnType<typeof createSmsOutboxRepository>;
