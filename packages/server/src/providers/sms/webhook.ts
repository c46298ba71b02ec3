/**
 * Production provider: POSTs {to, body, purpose} as JSON to SMS_WEBHOOK_URL with a bearer token, for an
 * SMS gateway (or a small relay in front of one). Any non-2xx answer is an error, so the SMS queue tries
 * again later instead of counting the message as sent.
 */
import type { SmsMessage, SmsProvider } from './sms-provider.ts';

export class WebhookSmsProvider implements SmsProvider {
  readonly name = 'webhook';
  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}
  async send(message: SmsMessage): Promise<void> {
    const res = await this.fetchImpl(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      body: JSON.stringify({ to: message.to, body: message.body, purpose: message.purpose }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
  }
}
