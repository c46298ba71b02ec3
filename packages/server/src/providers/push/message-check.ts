/** What FCM would refuse in a push message, checked before sending by every provider, so development refuses it too. */
import type { PushMessage } from './push.ts';

/** FCM's limit on `android.ttl`. */
export const MAX_TTL_SECONDS = 2_419_200;

/**
 * The first problem, or null when the message is well formed. Callers may be plain JavaScript, or build `data` from
 * numbers, which FCM answers with a 400.
 */
export function pushMessageProblem(message: PushMessage): string | null {
  if (typeof message.token !== 'string' || message.token.trim() === '') return 'token: is required';
  if (!message.data || typeof message.data !== 'object' || Array.isArray(message.data)) return 'data: must be an object';
  for (const [key, value] of Object.entries(message.data)) {
    if (typeof value !== 'string') return `data.${key}: must be a string (FCM takes string values only)`;
    // FCM keeps these keys for itself (its ErrorCode reference, "invalid data key").
    if (key === 'from' || key === 'gcm' || key.startsWith('google')) return `data.${key}: is a key FCM reserves`;
  }
  if (message.notification && (typeof message.notification.title !== 'string' || typeof message.notification.body !== 'string')) {
    return 'notification: needs a title and a body';
  }
  if (message.ttlSeconds !== undefined && (!Number.isInteger(message.ttlSeconds) || message.ttlSeconds < 0 || message.ttlSeconds > MAX_TTL_SECONDS)) {
    return `ttlSeconds: must be a whole number of seconds from 0 to ${MAX_TTL_SECONDS}`;
  }
  if (message.priority !== undefined && message.priority !== 'high' && message.priority !== 'normal') return "priority: must be 'high' or 'normal'";
  return null;
}
