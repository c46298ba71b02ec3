/**
 * Sends what sms_queue holds through the configured SMS provider. Requests only queue a message and kick
 * the worker; the vendor is called here, outside any request and any transaction. A failed attempt is
 * retried with exponential back-off up to a number of tries, then the message ends 'failed'. A claim
 * that runs out (the node died mid-send) is taken again, so delivery is at least once: a vendor that
 * accepted a message just before the node died may get it a second time, never two nodes at once.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import type { SmsProvider } from '../../providers/sms/sms-provider.ts';
import { startRepeating, withTimeout } from '../../shared/repeat.ts';
import type { ClaimedSms, QueuedSms, SmsQueueRepository } from './sms-queue.repository.ts';
import { maskMobile } from '@kisht/domain/mobile';

export interface SmsRetryPolicy {
  /** Attempts before a message ends 'failed'. */
  maxTries: number;
  /** Wait before the second attempt; each later one waits twice as long as the one before... */
  firstRetryMs: number;
  /** ...up to this. */
  maxRetryMs: number;
  /** How long a claim holds a message; longer than any send may take, or a slow send could go out twice. */
  leaseMs: number;
  /** Messages claimed (and sent side by side) at once. */
  batchSize: number;
  /** Sent and failed messages are kept this long, then deleted. */
  keepDays: number;
}

export const DEFAULT_SMS_RETRY: SmsRetryPolicy = {
  maxTries: 5,
  firstRetryMs: 5_000,
  maxRetryMs: 300_000,
  leaseMs: 60_000,
  batchSize: 10,
  keepDays: 7,
};

/** The wait before attempt `tries + 1`, after `tries` failed ones. */
export function retryDelayMs(policy: SmsRetryPolicy, tries: number): number {
  return Math.min(policy.maxRetryMs, policy.firstRetryMs * 2 ** Math.max(0, tries - 1));
}


export interface SmsQueueDeps {
  repository: SmsQueueRepository;
  provider: SmsProvider;
  /** Problems worth an operator's look; never given a full number. */
  log: (message: string, error?: unknown) => void;
  retry?: Partial<SmsRetryPolicy>;
}

export function createSmsQueue(deps: SmsQueueDeps) {
  const { repository, provider, log } = deps;
  const policy: SmsRetryPolicy = { ...DEFAULT_SMS_RETRY, ...deps.retry };
  let stopped = false;
  let stopTimer: () => void = () => undefined;
  // At most one drain runs and one waits: a kick during a drain queues the next one, which starts after
  // the kicker's message was committed and so is sure to see it; more kicks meanwhile join that one.
  let waiting: Promise<void> | null = null;
  let tail: Promise<void> = Promise.resolve();

  async function attempt(message: ClaimedSms, claimId: string): Promise<void> {
    const about = `SMS ${message.id} (${message.purpose}) to ${maskMobile(message.recipient)}`;
    try {
      await withTimeout(provider.send({ to: message.recipient, body: message.body, purpose: message.purpose }), policy.leaseMs / 2, 'the SMS provider did not answer');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const status = await repository.markFailedTry(message.id, claimId, policy.maxTries, retryDelayMs(policy, message.tries) / 1000, reason);
      if (status === null) log(`${about} failed after its claim had run out`, error);
      else if (status === 'failed') log(`${about} failed for good after ${message.tries} tries`, error);
      else log(`${about} failed (try ${message.tries} of ${policy.maxTries}); will retry`, error);
      return;
    }
    if (!(await repository.markSent(message.id, claimId))) log(`${about} went out after its claim had run out`);
  }

  async function drain(): Promise<void> {
    while (!stopped) {
      const claimId = randomUUID();
      const batch = await repository.claim(claimId, policy.batchSize, policy.leaseMs / 1000, policy.maxTries);
      await Promise.all(batch.map((message) => attempt(message, claimId).catch((error: unknown) => log(`SMS ${message.id} could not be settled`, error))));
      if (batch.length < policy.batchSize) return;
    }
  }

  function kick(): Promise<void> {
    if (waiting) return waiting;
    const run = tail.then(async () => {
      waiting = null;
      if (!stopped) await drain();
    }).catch((error: unknown) => log('SMS queue run failed', error));
    waiting = run;
    tail = run;
    return run;
  }

  /** Ends what cannot go out any more, forgets old messages, then sends what is due. */
  async function sweep(): Promise<void> {
    await repository.giveUp(policy.maxTries);
    await repository.purgeFinished(policy.keepDays);
    await kick();
  }

  return {
    /**
     * Queues an SMS in the caller's transaction. With `deliver` false nothing is written, at the same cost:
     * requests for unknown numbers call this too, so they cannot be told apart by their timing.
     */
    enqueue(message: QueuedSms, deliver: boolean, tx: Queryable): Promise<void> {
      return repository.add(message, deliver, tx);
    },

    /**
     * Call after the enqueueing transaction commits, whether or not it queued anything. Starts delivery
     * without waiting for it, except with a provider that only writes to our own database (the development
     * outbox), whose messages are then readable as soon as the request answers. Never throws.
     */
    async afterEnqueue(): Promise<void> {
      const run = kick();
      if (provider.local) await run;
    },

    /** Sends what is due now; resolves when done (failures are logged and retried, not thrown). */
    kick,
    sweep,

    /** Sweeps every `everyMs` until stop(). */
    start(everyMs: number): void {
      stopTimer = startRepeating(sweep, everyMs, (error) => log('SMS queue sweep failed', error));
    },

    /** Stops sweeping and waits for the messages in hand; unsent ones stay queued for the next start. */
    async stop(): Promise<void> {
      stopped = true;
      stopTimer();
      await tail;
    },

    policy,
  };
}
export type SmsQueue = ReturnType<typeof createSmsQueue>;
