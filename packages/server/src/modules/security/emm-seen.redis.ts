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
  await client.connect();
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
