/** Offers campaigns (ad_campaigns, ad_targets, ad_creatives) and the operator's announcements (migration 038). */
import type { Queryable } from '../../db/database.ts';
import type { AdSkipReason, AdTargetState, Audience, CampaignStatus } from '@kisht/contract/ads';

export interface CreativeRow {
  id: string;
  org_id: number;
  account_id: number;
  created_by: number;
  path: string;
  content_type: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  bytes: number;
}

export interface CampaignRow {
  id: number;
  org_id: number;
  account_id: number;
  created_by: number;
  title: string;
  text: string;
  link: string | null;
  creative_id: string | null;
  audience: Audience;
  send_at: Date;
  status: CampaignStatus;
  created_at: Date;
  creator_name: string;
}

/** A phone of a campaign as the sender decides it: its active agent's device id, and why it is skipped (null: send). */
export interface Decision {
  customer_id: number;
  device_id: string | null;
  reason: AdSkipReason | null;
}

/**
 * What became of a target, read from its offer command: on its way (sent), shown (delivered), opened (the
 * command is done), refused by the phone (failed, with its reason) or never reached (expired).
 */
const TARGET_STATE = `CASE WHEN t.state <> 'sent' THEN t.state
  WHEN d.state = 'done' THEN 'opened' WHEN d.state IN ('delivered', 'failed', 'expired') THEN d.state ELSE 'sent' END`;
const TARGET_REASON = `CASE WHEN t.state = 'skipped' THEN t.reason WHEN d.state = 'failed' THEN left(d.result ->> 'error', 40) END`;
const CAMPAIGN_COLUMNS = `a.id, a.org_id, a.account_id, a.created_by, a.title, a.text, a.link, a.creative_id, a.audience, a.send_at, a.status, a.created_at,
  coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.mobile) AS creator_name`;

export function createAdsRepository(db: Queryable) {
  return {
    async insertCreative(row: CreativeRow, q: Queryable = db): Promise<void> {
      await q.query(
        'INSERT INTO ad_creatives (id, org_id, account_id, created_by, path, content_type, width, height, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        [row.id, row.org_id, row.account_id, row.created_by, row.path, row.content_type, row.width, row.height, row.bytes],
      );
    },

    /** A creative of the network; a mini-retailer's own only (retailerId). */
    async creative(accountId: number, retailerId: number | null, id: string, q: Queryable = db): Promise<CreativeRow | undefined> {
      return (await q.query<CreativeRow>(
        'SELECT * FROM ad_creatives WHERE id = $1 AND account_id = $2 AND ($3::int IS NULL OR created_by = $3)',
        [id, accountId, retailerId],
      )).rows[0];
    },

    /** The creative of a campaign one of whose offers went to this customer (the phone fetching its picture). */
    async creativeForTarget(campaignId: number, customerId: number): Promise<CreativeRow | undefined> {
      return (await db.query<CreativeRow>(
        `SELECT r.* FROM ad_targets t JOIN ad_campaigns a ON a.id = t.campaign_id JOIN ad_creatives r ON r.id = a.creative_id
          WHERE t.campaign_id = $1 AND t.customer_id = $2 AND t.state = 'sent'`,
        [campaignId, customerId],
      )).rows[0];
    },

    /** A campaign and its targets, in the caller's transaction; null when the idempotency key was used before. */
    async insertCampaign(
      row: { org_id: number; account_id: number; created_by: number; title: string; text: string; link: string | null; creative_id: string | null; audience: Audience; send_at: Date; idempotency_key: string | null },
      customerIds: number[],
      q: Queryable,
    ): Promise<number | null> {
      const id = (await q.query<{ id: number }>(
        `INSERT INTO ad_campaigns (org_id, account_id, created_by, title, text, link, creative_id, audience, send_at, idempotency_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (created_by, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`,
        [row.org_id, row.account_id, row.created_by, row.title, row.text, row.link, row.creative_id, JSON.stringify(row.audience), row.send_at, row.idempotency_key],
      )).rows[0]?.id;
      if (id === undefined) return null;
      await q.query('INSERT INTO ad_targets (campaign_id, customer_id) SELECT $1, unnest($2::int[])', [id, customerIds]);
      return id;
    },

    async campaignByKey(createdBy: number, key: string): Promise<number | undefined> {
      return (await db.query<{ id: number }>('SELECT id FROM ad_campaigns WHERE created_by = $1 AND idempotency_key = $2', [createdBy, key])).rows[0]?.id;
    },

    /** A campaign of the network; a mini-retailer's own only. */
    async campaign(accountId: number, retailerId: number | null, id: number, q: Queryable = db): Promise<CampaignRow | undefined> {
      return (await q.query<CampaignRow>(
        `SELECT ${CAMPAIGN_COLUMNS} FROM ad_campaigns a JOIN users u ON u.id = a.created_by
          WHERE a.id = $1 AND a.account_id = $2 AND ($3::int IS NULL OR a.created_by = $3)`,
        [id, accountId, retailerId],
      )).rows[0];
    },

    /** A page of the network's campaigns, newest first; one more row than asked tells whether more follow. */
    async campaigns(accountId: number, retailerId: number | null, limit: number, offset: number): Promise<CampaignRow[]> {
      return (await db.query<CampaignRow>(
        `SELECT ${CAMPAIGN_COLUMNS} FROM ad_campaigns a JOIN users u ON u.id = a.created_by
          WHERE a.account_id = $1 AND ($2::int IS NULL OR a.created_by = $2)
          ORDER BY a.created_at DESC, a.id DESC LIMIT $3 OFFSET $4`,
        [accountId, retailerId, limit + 1, offset],
      )).rows;
    },

    /** Each campaign's phones by what became of them, and its skipped (and refused) phones by reason. */
    async counts(campaignIds: number[]): Promise<Array<{ campaign_id: number; state: AdTargetState; reason: string | null; n: number }>> {
      if (campaignIds.length === 0) return [];
      return (await db.query<{ campaign_id: number; state: AdTargetState; reason: string | null; n: number }>(
        `SELECT t.campaign_id, ${TARGET_STATE} AS state, ${TARGET_REASON} AS reason, count(*)::int AS n
           FROM ad_targets t LEFT JOIN device_commands d ON d.id = t.command_id
          WHERE t.campaign_id = ANY($1::int[]) GROUP BY 1, 2, 3`,
        [campaignIds],
      )).rows;
    },

    /** A page of a campaign's phones with what became of each; one more row than asked tells whether more follow. */
    async targets(campaignId: number, state: AdTargetState | undefined, limit: number, offset: number) {
      return (await db.query<{ customer_id: number; name: string; state: AdTargetState; reason: string | null; updated_at: Date }>(
        `SELECT * FROM (
           SELECT t.customer_id, c.first_name || ' ' || c.last_name AS name, ${TARGET_STATE} AS state, ${TARGET_REASON} AS reason,
                  greatest(t.updated_at, d.delivered_at, d.finished_at) AS updated_at
             FROM ad_targets t JOIN customers c ON c.id = t.customer_id LEFT JOIN device_commands d ON d.id = t.command_id
            WHERE t.campaign_id = $1) x
          WHERE $2::text IS NULL OR x.state = $2
          ORDER BY x.customer_id LIMIT $3 OFFSET $4`,
        [campaignId, state ?? null, limit + 1, offset],
      )).rows;
    },

    /** Stops a campaign that has not finished; the phones it has not reached yet stay unreached. */
    async cancel(id: number): Promise<boolean> {
      return (await db.query(`UPDATE ad_campaigns SET status = 'cancelled', finished_at = now() WHERE id = $1 AND status IN ('scheduled', 'waiting', 'sending')`, [id])).rowCount > 0;
    },

    /** Campaigns due while offers may not go out: marked waiting, so the console says why nothing moves. */
    async markWaiting(now: Date): Promise<Array<{ account_id: number; created_by: number }>> {
      return (await db.query<{ account_id: number; created_by: number }>(
        `UPDATE ad_campaigns SET status = 'waiting' WHERE status = 'scheduled' AND send_at <= $1 RETURNING account_id, created_by`,
        [now],
      )).rows;
    },

    /** The next due campaign no other node is sending, locked for the transaction, and marked sending. */
    async claimDue(now: Date, q: Queryable): Promise<CampaignRow | undefined> {
      const row = (await q.query<CampaignRow>(
        `SELECT ${CAMPAIGN_COLUMNS} FROM ad_campaigns a JOIN users u ON u.id = a.created_by
          WHERE a.status IN ('scheduled', 'waiting', 'sending') AND a.send_at <= $1
          ORDER BY a.send_at, a.id LIMIT 1 FOR UPDATE OF a SKIP LOCKED`,
        [now],
      )).rows[0];
      if (row && row.status !== 'sending') await q.query(`UPDATE ad_campaigns SET status = 'sending', started_at = coalesce(started_at, now()) WHERE id = $1`, [row.id]);
      return row;
    },

    /**
   * The organisation's caps; its row is locked (NO KEY UPDATE: inserts that reference the organisation go on), so two
   * campaigns of one organisation decide their phones in turn, on any node.
   */
    async lockCaps(orgId: number, q: Queryable): Promise<{ per_day: number; per_week: number }> {
      return (await q.query<{ per_day: number; per_week: number }>(
        'SELECT offers_per_day AS per_day, offers_per_week AS per_week FROM organizations WHERE id = $1 FOR NO KEY UPDATE',
        [orgId],
      )).rows[0]!;
    },

    async caps(orgId: number): Promise<{ per_day: number; per_week: number }> {
      return (await db.query<{ per_day: number; per_week: number }>('SELECT offers_per_day AS per_day, offers_per_week AS per_week FROM organizations WHERE id = $1', [orgId])).rows[0]!;
    },

    /**
     * Up to `limit` of the campaign's undecided phones, locked, each with why it is skipped: no phone running our
     * agent, a locked phone, a customer who opted out, or the per-phone caps (offers sent that India day, and in
     * that day and the six before it). Null reason: send.
     */
    async decideChunk(campaignId: number, now: Date, caps: { per_day: number; per_week: number }, limit: number, q: Queryable): Promise<Decision[]> {
      return (await q.query<Decision>(
        `WITH chunk AS (
           SELECT customer_id FROM ad_targets WHERE campaign_id = $1 AND state = 'pending' ORDER BY customer_id LIMIT $5 FOR UPDATE
         ), day AS (SELECT ($2::timestamptz AT TIME ZONE 'Asia/Kolkata')::date AS today)
         SELECT ch.customer_id, d.id AS device_id,
                CASE WHEN d.id IS NULL THEN 'no_phone'
                     WHEN c.lock_status = 1 THEN 'locked'
                     WHEN d.offers_opt_out THEN 'opted_out'
                     WHEN sent.today >= $3 THEN 'daily_cap'
                     WHEN sent.week >= $4 THEN 'weekly_cap' END AS reason
           FROM chunk ch CROSS JOIN day
           JOIN customers c ON c.id = ch.customer_id
           LEFT JOIN devices d ON d.customer_id = ch.customer_id AND d.active AND d.channel = 'mqtt'
           LEFT JOIN LATERAL (
             SELECT count(*) FILTER (WHERE (s.sent_at AT TIME ZONE 'Asia/Kolkata')::date = day.today) AS today, count(*) AS week
               FROM ad_targets s
              WHERE s.customer_id = ch.customer_id AND s.sent_at >= ((day.today - 6)::timestamp AT TIME ZONE 'Asia/Kolkata')
           ) sent ON true
          ORDER BY ch.customer_id`,
        [campaignId, now, caps.per_day, caps.per_week, limit],
      )).rows;
    },

    async markSkipped(campaignId: number, skipped: Array<{ customer_id: number; reason: AdSkipReason }>, q: Queryable): Promise<void> {
      if (skipped.length === 0) return;
      await q.query(
        `UPDATE ad_targets t SET state = 'skipped', reason = s.reason, updated_at = now()
           FROM unnest($2::int[], $3::text[]) AS s(customer_id, reason) WHERE t.campaign_id = $1 AND t.customer_id = s.customer_id`,
        [campaignId, skipped.map((s) => s.customer_id), skipped.map((s) => s.reason)],
      );
    },

    async markSent(campaignId: number, sent: Array<{ customer_id: number; command_id: string }>, now: Date, q: Queryable): Promise<void> {
      if (sent.length === 0) return;
      await q.query(
        `UPDATE ad_targets t SET state = 'sent', command_id = s.command_id, sent_at = $4, updated_at = now()
           FROM unnest($2::int[], $3::uuid[]) AS s(customer_id, command_id) WHERE t.campaign_id = $1 AND t.customer_id = s.customer_id`,
        [campaignId, sent.map((s) => s.customer_id), sent.map((s) => s.command_id), now],
      );
    },

    /** The campaign is sent once no phone is left undecided. */
    async finishIfDone(campaignId: number, q: Queryable): Promise<boolean> {
      return (await q.query(
        `UPDATE ad_campaigns SET status = 'sent', finished_at = now()
          WHERE id = $1 AND status = 'sending' AND NOT EXISTS (SELECT 1 FROM ad_targets WHERE campaign_id = $1 AND state = 'pending')`,
        [campaignId],
      )).rowCount > 0;
    },

    /** The campaign an offer command belongs to (a phone's report moved it). */
    async campaignsOfCommands(commandIds: string[]): Promise<Array<{ account_id: number; created_by: number }>> {
      if (commandIds.length === 0) return [];
      return (await db.query<{ account_id: number; created_by: number }>(
        `SELECT DISTINCT a.account_id, a.created_by FROM ad_targets t JOIN ad_campaigns a ON a.id = t.campaign_id WHERE t.command_id = ANY($1::uuid[])`,
        [commandIds],
      )).rows;
    },

    /** The newest active announcement for the user's organisation (or for every one) that the user has not dismissed. */
    async announcement(orgId: number, userId: number) {
      return (await db.query<{ id: number; title: string; text: string; link: string | null; created_at: Date }>(
        `SELECT a.id, a.title, a.text, a.link, a.created_at FROM announcements a
          WHERE a.active AND (a.org_id IS NULL OR a.org_id = $1)
            AND NOT EXISTS (SELECT 1 FROM announcement_dismissals x WHERE x.announcement_id = a.id AND x.user_id = $2)
          ORDER BY a.created_at DESC, a.id DESC LIMIT 1`,
        [orgId, userId],
      )).rows[0];
    },

    /** Dismisses an announcement the user may see; false when there is no such announcement for them. */
    async dismiss(orgId: number, userId: number, announcementId: number): Promise<boolean> {
      const res = await db.query(
        `INSERT INTO announcement_dismissals (announcement_id, user_id)
         SELECT a.id, $2 FROM announcements a WHERE a.id = $3 AND (a.org_id IS NULL OR a.org_id = $1)
         ON CONFLICT DO NOTHING RETURNING 1`,
        [orgId, userId, announcementId],
      );
      if (res.rowCount > 0) return true;
      return (await db.query('SELECT 1 FROM announcements a WHERE a.id = $2 AND (a.org_id IS NULL OR a.org_id = $1)', [orgId, announcementId])).rows.length > 0;
    },
  };
}
export type AdsRepository = ReturnType<typeof createAdsRepository>;
