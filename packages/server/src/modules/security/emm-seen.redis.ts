/**
 * X-EMM-Auth-Session values already used, kept in Redis when REDIS_URL is set: one SET ... NX PX per request
 * instead of an INSERT, shared by every API node on that Redis, so a replay fails on any of them. A value
 * expires by itself after twice the header's window (no sweep). Redis unreachable: the request is answered 503
 * (fail closed), never let through unchecked; commands are not queued while the client reconnects.
 */
import { createClient } from '@redis/client';
import { AppError } from '../../errors.ts';
import type { EmmSeenRepository } from './emm-seen.repository.ts';

const PREFIX = 'kisht:emm-seen:';
/** How long start-up waits for Redis before going on without it. */
const CONNECT_WAIT_MS = 2000;

export async function createRedisEmmSeen(options: { url: string; windowMs: number; log: (message: string, error?: unknown) => void }): Promise<EmmSeenRepository & { close(): Promise<void> }> {
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 5000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5000) },
  });
  let lastError = 0;
  client.on('error', (error: unknown) => {
    // Reconnection errors repeat; one line every 10 s is enough to see it.
    if (Date.now() - lastError > 10_000) options.log('the anti-replay store (Redis) is unreachable', error);
    lastError = Date.now();
  });
  // Waited for a moment only: a node starts (answering 503 to what needs the check) while Redis is away, and
  // connects when it is back, instead of hanging at start-up.
  const connected = client.connect().then(() => undefined, (error: unknown) => options.log('the anti-replay store (Redis) could not be reached at start', error));
  await Promise.race([connected, new Promise((resolve) => setTimeout(resolve, CONNECT_WAIT_MS).unref())]);
  return {
    async remember(value: string): Promise<boolean> {
      let answer: string | null;
      try {
        answer = await client.set(`${PREFIX}${value}`, '1', { condition: 'NX', expiration: { type: 'PX', value: 2 * options.windowMs } });
      } catch (error) {
        options.log('the anti-replay store (Redis) did not answer', error);
        throw new AppError('SERVICE_UNAVAILABLE', { retry_after_seconds: 5 });
      }
      return answer === 'OK';
    },
    // Each value expires by itself.
    async forgetOlderThan() {},
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}
