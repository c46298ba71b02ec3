/**
 * Notifications pushed to the retailer's phone through the console's native shell (docs/native-bridge.md): when
 * notifications arrive for members, each of their registered push tokens gets the ones it has not had yet (at most
 * a few, newest last), worded in the language the token was registered with, with the notification's id so a tap
 * opens the screen concerned. Sent by the node where the notifications were written, after their commit (the same
 * moment the `notification` server event leaves), so no node pushes one twice. A token the provider calls
 * unregistered or invalid is dropped.
 */
import type { NotificationKind } from '@kisht/contract/notifications';
import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@kisht/domain/constants';
import { formatRupees } from '@kisht/domain/money';
import type { Database } from '../../db/database.ts';
import type { PushProvider } from '../../providers/push/push.ts';
import { translate } from '../../shared/messages.ts';

/** The most notifications one token is sent at once (a burst, e.g. a dues run and payments, is not a flood). */
export const PUSH_BURST = 3;

interface Pending {
  token: string;
  language: string;
  id: string;
  kind: NotificationKind;
  customer_name: string | null;
  /** The organisation's name for the key's product type (keys notifications). */
  product_name: string | null;
  data: Record<string, unknown>;
}

/** The title and text of a pushed notification, as the console's bell words them. */
export function pushWords(language: Language, n: Pick<Pending, 'kind' | 'customer_name' | 'product_name' | 'data'>): { title: string; body: string } {
  const t = (key: string, vars: Record<string, string | number> = {}) => translate(language, `notifications.${key}`, key, vars);
  const command = typeof n.data.command === 'string' && /^[a-z_]+$/.test(n.data.command)
    ? translate(language, `device.action.${n.data.command}`, n.data.command)
    : t('unknownCommand');
  const amount = typeof n.data.amount_paise === 'number' ? formatRupees(n.data.amount_paise) : null;
  const count = (key: string) => (typeof n.data[key] === 'number' ? (n.data[key] as number) : 0);
  const name = typeof n.data.from_name === 'string' ? n.data.from_name : '';
  const title =
    n.kind === 'payment_received' || n.kind === 'payment_claim' ? (amount ? t(`kind.${n.kind}`, { amount }) : t(`kind.${n.kind}_plain`))
    : n.kind === 'command_failed' || n.kind === 'command_expired' ? t(`kind.${n.kind}`, { command })
    : n.kind === 'key_request' || n.kind === 'keys_received' ? t(`kind.${n.kind}`, { name })
    : n.kind === 'keys_low' ? t('kind.keys_low', { type: n.product_name ?? '' })
    : n.kind === 'phone_offline' ? t('kind.phone_offline', { count: count('days') })
    : n.kind === 'dues_run' ? t('kind.dues_run', { count: count('instalments') })
    : t(`kind.${n.kind}`);
  return { title, body: n.customer_name ?? '' };
}

export function createNotificationPush(deps: { db: Database; provider: PushProvider; log: (message: string, error?: unknown) => void }) {
  const { db, provider } = deps;

  async function pushFor(userIds: readonly number[]): Promise<number> {
    if (userIds.length === 0) return 0;
    // Each token's unread notifications newer than what it was last pushed, the newest few.
    const rows = (await db.query<Pending>(
      `SELECT t.token, t.language, n.id::text AS id, n.kind, n.data,
              CASE WHEN c.id IS NULL THEN NULL ELSE c.first_name || ' ' || c.last_name END AS customer_name,
              (SELECT p.name FROM products p JOIN users u ON u.org_id = p.org_id
                WHERE u.id = t.user_id AND p.product_type::text = n.data ->> 'product_type' LIMIT 1) AS product_name
         FROM user_push_tokens t
         CROSS JOIN LATERAL (
           SELECT * FROM notifications n WHERE n.user_id = t.user_id AND n.id > t.pushed_up_to AND n.read_at IS NULL ORDER BY n.id DESC LIMIT ${PUSH_BURST}
         ) n
         LEFT JOIN customers c ON c.id = n.customer_id
         JOIN users u ON u.id = t.user_id AND u.active
        WHERE t.user_id = ANY($1::int[])
          -- Only while the session that registered the token is live (a token from before sessions were kept: any of the member's).
          AND EXISTS (SELECT 1 FROM sessions s WHERE s.id = coalesce(t.session_id, s.id) AND s.user_id = t.user_id AND s.ended_at IS NULL AND s.expires_at > now())
        ORDER BY t.token, n.id`,
      [[...new Set(userIds)]],
    )).rows;
    let sent = 0;
    for (const token of new Set(rows.map((r) => r.token))) {
      const mine = rows.filter((r) => r.token === token);
      // Taken first, so a second arrival while these go out does not send them again.
      const upTo = mine[mine.length - 1]!.id;
      const claimed = await db.query('UPDATE user_push_tokens SET pushed_up_to = $2 WHERE token = $1 AND pushed_up_to < $2', [token, upTo]);
      if (claimed.rowCount === 0) continue;
      for (const n of mine) {
        const language = isLanguage(n.language) ? n.language : FALLBACK_LANGUAGE;
        const words = pushWords(language, n);
        const result = await provider.send({
          token, notification: words, channelId: 'notifications', collapseKey: `n${n.id}`,
          data: { type: 'notification', notification_id: n.id, kind: n.kind },
        }).catch((error: unknown) => {
          deps.log('notification push failed', error);
          return null;
        });
        if (result?.ok) sent++;
        if (result && !result.ok && (result.reason === 'unregistered' || result.reason === 'invalid')) {
          await db.query('DELETE FROM user_push_tokens WHERE token = $1', [token]);
          break;
        }
      }
    }
    return sent;
  }

  return {
    pushFor,
    /** After notifications were written for these members: pushed in the background, never in the writer's way. */
    arrived(userIds: readonly number[]): void {
      void pushFor(userIds).catch((error: unknown) => deps.log('notification push failed', error));
    },

    /**
     * Registers the shell's token for the member's session (moving it from whoever had it on that phone): pushes
     * stop when that session ends.
     */
    async register(userId: number, sessionId: string, token: string, language: Language): Promise<void> {
      // Starts after the member's newest notification: the phone is told of what arrives from now on.
      await db.query(
        `INSERT INTO user_push_tokens (token, user_id, session_id, language, pushed_up_to)
         VALUES ($1, $2, $4, $3, coalesce((SELECT max(id) FROM notifications WHERE user_id = $2), 0))
         ON CONFLICT (token) DO UPDATE SET language = EXCLUDED.language, updated_at = now(), session_id = EXCLUDED.session_id,
           user_id = EXCLUDED.user_id,
           -- A new session (signed in again, or another member) hears of what arrives from now on, not what waited meanwhile.
           pushed_up_to = CASE WHEN user_push_tokens.session_id IS NOT DISTINCT FROM EXCLUDED.session_id THEN user_push_tokens.pushed_up_to ELSE EXCLUDED.pushed_up_to END`,
        [token, userId, language, sessionId],
      );
    },

    /** Forgets the member's token (signing out on that phone); another member's token is left alone. */
    async remove(userId: number, token: string): Promise<void> {
      await db.query('DELETE FROM user_push_tokens WHERE token = $1 AND user_id = $2', [token, userId]);
    },
  };
}
export type NotificationPush = ReturnType<typeof createNotificationPush>;
