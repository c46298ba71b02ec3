/** Development and test provider: messages land in the sms_outbox table, readable at GET /api/dev/outbox. */
import type { SmsOutboxRepository } from '../../modules/dev/sms-outbox.repository.ts';
import type { SmsMessage, SmsProvider } from './sms-provider.ts';

export class DevOutboxSmsProvider implements SmsProvider {
  readonly name = 'dev-outbox';
  readonly local = true;
  constructor(readonly outbox: SmsOutboxRepository) {}
  async send(message: SmsMessage): Promise<void> {
    await this.outbox.add(message.to, message.body, message.purpose);
  }
}
