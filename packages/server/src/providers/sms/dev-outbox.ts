/** Development and test provider: messages land in the sms_outbox table, readable at GET /api/dev/outbox. */
import type { Queryable } from '../../db/database.ts';
import type { SmsMessage, SmsProvider } from './sms-provider.ts';

export class DevOutboxSmsProvider implements SmsProvider {
  readonly name = 'dev-outbox';
  constructor(private readonly db: Queryable) {}
  async send(message: SmsMessage): Promise<void> {
    await this.db.query('INSERT INTO sms_outbox (recipient, body, purpose) VALUES ($1, $2, $3)', [message.to, message.body, message.purpose]);
  }
  async list(recipient: string | undefined, limit: number) {
    const res = await this.db.query<{ id: number; recipient: string; body: string; purpose: string | null; created_at: Date }>(
      `SELECT id, recipient, body, purpose, created_at FROM sms_outbox
        WHERE ($1::text IS NULL OR recipient = $1) ORDER BY id DESC LIMIT $2`,
      [recipient ?? null, limit],
    );
    return res.rows;
  }
}
