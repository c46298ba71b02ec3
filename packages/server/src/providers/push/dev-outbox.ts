/**
 * Development and test provider: messages are kept in memory (the newest `capacity` of them), so `npm start`
 * works without Firebase credentials and a test can read what would have reached a phone.
 */
import { pushMessageProblem } from './message-check.ts';
import type { PushMessage, PushProvider, PushResult } from './push.ts';

/** One message the outbox kept. */
export interface OutboxPush {
  id: string;
  message: PushMessage;
  at: Date;
}

export class DevOutboxPushProvider implements PushProvider {
  readonly name = 'dev-outbox';
  readonly local = true;
  private readonly kept: OutboxPush[] = [];
  private count = 0;

  constructor(private readonly capacity = 500) {}

  async send(message: PushMessage): Promise<PushResult> {
    const problem = pushMessageProblem(message);
    if (problem) return { ok: false, reason: 'rejected', status: 0, retryable: false, code: problem };
    this.count += 1;
    const id = `dev-outbox/${this.count}`;
    // A copy: a caller reusing its object must not rewrite what was "sent".
    this.kept.push({ id, message: structuredClone(message), at: new Date() });
    if (this.kept.length > this.capacity) this.kept.splice(0, this.kept.length - this.capacity);
    return { ok: true, id };
  }

  /** The newest messages first, all of them or those to one token. */
  latest(token?: string, limit = 50): OutboxPush[] {
    const matching = token === undefined ? this.kept : this.kept.filter((p) => p.message.token === token);
    return matching.slice(-limit).reverse();
  }
}
