/**
 * Offers to customers' phones (decision 029). A campaign's phones are fixed when it is made (the caller's
 * list, as it may see it); a sender on every node then decides them a chunk at a time, in one transaction
 * per chunk that holds the organisation's row, so the per-phone caps hold across campaigns and nodes: no
 * offer to a phone without our agent, to a locked phone or to a customer who opted out, none outside the
 * sending hours (09:00-21:00 India time), at most the organisation's number per phone per day and per
 * week, and one per phone per campaign. Each offer is an `offer` command on the device channel; its state
 * is the campaign's result for that phone (shown, opened, refused, expired).
 */
import { randomUUID } from 'node:crypto';
import { AD_DEFAULT_CAPS, AD_OFFER_HOURS, AD_SEND_HOURS, AD_SKIP_REASONS, AD_TARGET_STATES, type AdCreative, type AdSettings, type Announcement, type Campaign, type CampaignBody, type CampaignList, type CampaignTargets } from '@kisht/contract/ads';
import type { OfferPayload } from '@kisht/protocol/messages';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import { normaliseImage, sniffImage, type FileStore } from '../documents/file-store.ts';
import { ownRetailerOf, type CustomersRepository } from '../customers/customers.repository.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { CommandChannel } from '../devices/command-channel.ts';
import type { CommandRow, DeviceRow, DevicesRepository } from '../devices/devices.repository.ts';
import type { Notify } from '../events/events.bus.ts';
import type { PushSender } from './push-wake.ts';
import type { AdsRepository, CampaignRow } from './ads.repository.ts';

/** Phones decided per transaction. */
export const OFFER_CHUNK = 200;
/** The most phones one campaign is for (as a bulk lock). */
export const CAMPAIGN_MAX = 20_000;

export interface AdsServiceDeps {
  db: Database;
  ads: AdsRepository;
  customers: CustomersService;
  customerRows: CustomersRepository;
  devices: DevicesRepository;
  channel: CommandChannel;
  files: FileStore;
  notify?: Notify;
  /** Wakes phones with a push token (FCM) once their offers are published; absent: the device channel alone. */
  push?: PushSender;
  /** The server's clock; tests move it. */
  now?: () => Date;
  /** India-time hours offers may go out in, [from, to). */
  sendHours?: { from: number; to: number };
}

const INDIA_OFFSET_MS = 330 * 60_000;

/** The hour of the day in India (UTC+05:30, no daylight saving). */
export function indiaHour(at: Date): number {
  return new Date(at.getTime() + INDIA_OFFSET_MS).getUTCHours();
}

/** Whole minutes from `at` to the next time the India clock shows `hour`:00 (up to a day). */
export function minutesUntilHour(at: Date, hour: number): number {
  const india = new Date(at.getTime() + INDIA_OFFSET_MS);
  const target = Date.UTC(india.getUTCFullYear(), india.getUTCMonth(), india.getUTCDate(), hour) - INDIA_OFFSET_MS;
  const ms = target > at.getTime() ? target - at.getTime() : target + 86_400_000 - at.getTime();
  return Math.floor(ms / 60_000);
}

export function createAdsService(deps: AdsServiceDeps) {
  const { db, ads } = deps;
  const now = deps.now ?? (() => new Date());
  const hours = deps.sendHours ?? AD_SEND_HOURS;
  const inSendHours = (at: Date) => indiaHour(at) >= hours.from && indiaHour(at) < hours.to;

  const imagePathOf = (row: { id: number; creative_id: string | null }) => (row.creative_id ? `/api/device/offer_image?campaign_id=${row.id}` : null);

  async function views(rows: CampaignRow[]): Promise<Campaign[]> {
    const counts = await ads.counts(rows.map((r) => r.id));
    return rows.map((row) => {
      const mine = counts.filter((c) => c.campaign_id === row.id);
      const by = (state: string) => mine.filter((c) => c.state === state).reduce((s, c) => s + c.n, 0);
      const states = Object.fromEntries(AD_TARGET_STATES.map((s) => [s, by(s)])) as Record<(typeof AD_TARGET_STATES)[number], number>;
      // Only the known reasons name a count; whatever else a phone said is `other` (its words never become a key).
      const skipped: Record<string, number> = Object.fromEntries([...AD_SKIP_REASONS, 'other'].map((r) => [r, 0]));
      for (const c of mine) {
        if ((c.state !== 'skipped' && c.state !== 'failed') || !c.reason) continue;
        const reason = (AD_SKIP_REASONS as readonly string[]).includes(c.reason) ? c.reason : 'other';
        skipped[reason] = skipped[reason]! + c.n;
      }
      return {
        id: row.id, title: row.title, text: row.text, link: row.link,
        image_url: row.creative_id ? `/api/ads/creative_image?creative_id=${row.creative_id}` : null,
        audience: row.audience, status: row.status, send_at: row.send_at.toISOString(), created_at: row.created_at.toISOString(), created_by: row.creator_name,
        counts: {
          targeted: mine.reduce((s, c) => s + c.n, 0), pending: states.pending, skipped: states.skipped, sent: states.sent,
          // An opened offer was shown first: delivered counts it too.
          delivered: states.delivered + states.opened, opened: states.opened, failed: states.failed, expired: states.expired,
        },
        skipped,
      };
    });
  }

  async function visibleCampaign(caller: RequestAuth, id: number): Promise<CampaignRow> {
    const row = await ads.campaign(caller.accountId, ownRetailerOf(caller), id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  const told = (rows: Array<{ account_id: number; created_by: number }>) => {
    for (const r of new Map(rows.map((x) => [`${x.account_id}:${x.created_by}`, x])).values()) deps.notify?.({ type: 'campaign', account_id: r.account_id, retailer_id: r.created_by }); // events
  };

  /** The phones a campaign is for: the caller's own list under its audience, checked one by one for picked ones. */
  async function audienceOf(caller: RequestAuth, body: CampaignBody): Promise<number[]> {
    const { audience } = body;
    if (audience.kind === 'picked') {
      const ids = [...new Set(audience.customer_ids)];
      // All or nothing, like a bulk lock: one customer the caller may not see refuses the request before anything is written.
      if ((await deps.customerRows.visibleTo(caller, ids)).length !== ids.length) throw new AppError('NOT_FOUND');
      return ids;
    }
    const filter = audience.kind === 'all' ? { status: 'all' } : {
      status: audience.status ?? 'all', ...(audience.search ? { search: audience.search } : {}), ...(audience.lock_status !== undefined ? { lock_status: audience.lock_status } : {}),
      ...(audience.from ? { from: audience.from } : {}), ...(audience.to ? { to: audience.to } : {}),
    };
    return deps.customers.listIds(caller, filter as never, CAMPAIGN_MAX);
  }

  /** Decides one chunk of the next due campaign and writes its offers; false when no campaign is due. */
  async function sendChunk(at: Date): Promise<{ campaign: CampaignRow; sent: Array<{ device: DeviceRow; row: CommandRow }>; finished: boolean } | null> {
    return db.transaction(async (tx) => {
      const campaign = await ads.claimDue(at, tx);
      if (!campaign) return null;
      const caps = await ads.lockCaps(campaign.org_id, tx);
      const decisions = await ads.decideChunk(campaign.id, at, caps, OFFER_CHUNK, tx);
      const skipped = decisions.flatMap((d) => (d.reason ? [{ customer_id: d.customer_id, reason: d.reason }] : []));
      await ads.markSkipped(campaign.id, skipped, tx);
      const toSend = decisions.filter((d) => !d.reason && d.device_id);
      const devices = new Map((await deps.devices.activeDevices(toSend.map((d) => d.customer_id), tx)).map((d) => [d.id, d]));
      const payload: OfferPayload = { campaign_id: campaign.id, title: campaign.title, text: campaign.text, link: campaign.link, image: imagePathOf(campaign) };
      const sent: Array<{ device: DeviceRow; row: CommandRow }> = [];
      // One statement for the chunk's commands (devices locked in id order, as report groups and bulk batches lock them).
      // An offer not on the phone by the end of today's sending hours is not shown later.
      const ttlMinutes = Math.max(1, Math.min(AD_OFFER_HOURS * 60, minutesUntilHour(at, hours.to)));
      const targets = toSend.flatMap((d) => (devices.has(d.device_id!) ? [devices.get(d.device_id!)!] : []));
      const rows = await deps.devices.createCommands(targets.map((device) => ({
        id: randomUUID(), device_id: device.id, customer_id: device.customer_id, account_id: device.account_id, type: 'offer', payload,
        created_by: campaign.created_by, ttl_minutes: ttlMinutes, origin: 'system', batch_id: null,
      })), tx);
      const deviceOf = new Map(targets.map((d) => [d.id, d]));
      for (const row of rows) sent.push({ device: deviceOf.get(row.device_id)!, row });
      await ads.markSent(campaign.id, sent.map((s) => ({ customer_id: s.device.customer_id, command_id: s.row.id })), at, tx);
      const finished = await ads.finishIfDone(campaign.id, tx);
      return { campaign, sent, finished };
    });
  }

  async function sendDue(): Promise<number> {
    let written = 0;
    for (;;) {
      // The clock is read for every chunk: a long run that reaches the end of the sending hours stops there.
      const at = now();
      if (!inSendHours(at)) {
        told(await ads.markWaiting(at));
        return written;
      }
      const chunk = await sendChunk(at);
      if (!chunk) return written;
      written += chunk.sent.length;
      if (chunk.sent.length > 0) {
        await deps.channel.publishMany(chunk.sent);
        if (deps.push) await deps.push.wake(chunk.sent);
      }
      told([{ account_id: chunk.campaign.account_id, created_by: chunk.campaign.created_by }]);
    }
  }
  let sending: Promise<number> = Promise.resolve(0);
  /** One node's runs follow one another: a campaign just made starts one, and the scheduler's turn waits for it. */
  function runDue(): Promise<number> {
    const next = sending.then(sendDue, sendDue);
    sending = next.catch(() => 0);
    return next;
  }

  return {
    /** Stores an offer's picture: decoded and encoded again as it came, at most 1200 x 1200, JPEG quality 0.8. */
    async storeCreative(caller: RequestAuth, bytes: Buffer): Promise<AdCreative> {
      const kind = sniffImage(bytes);
      if (!kind) throw new AppError('UNSUPPORTED_FILE');
      const image = await normaliseImage(bytes, kind, 'ad_creative');
      if (!image.ok) throw new AppError(image.reason === 'too_large' ? 'IMAGE_TOO_LARGE' : 'IMAGE_INVALID');
      const relative = await deps.files.save(caller.orgId, caller.userId, 'ad_creative', kind, image.bytes);
      const id = randomUUID();
      try {
        await ads.insertCreative({ id, org_id: caller.orgId, account_id: caller.accountId, created_by: caller.userId, path: relative, content_type: kind.contentType, width: image.width, height: image.height, bytes: image.bytes.length });
      } catch (error) {
        await deps.files.remove(relative); // nothing points at it
        throw error;
      }
      return { creative_id: id, url: `/api/ads/creative_image?creative_id=${id}`, width: image.width, height: image.height, bytes: image.bytes.length, content_type: kind.contentType };
    },

    async readCreative(caller: RequestAuth, id: string): Promise<{ contentType: string; bytes: Buffer }> {
      const row = await ads.creative(caller.accountId, ownRetailerOf(caller), id);
      const bytes = row ? await deps.files.read(row.path).catch(() => null) : null;
      if (!row || !bytes) throw new AppError('NOT_FOUND');
      return { contentType: row.content_type, bytes };
    },

    /** The picture of an offer sent to this phone. */
    async offerImage(device: DeviceRow, campaignId: number): Promise<{ contentType: string; bytes: Buffer }> {
      const row = await ads.creativeForTarget(campaignId, device.customer_id);
      const bytes = row ? await deps.files.read(row.path).catch(() => null) : null;
      if (!row || !bytes) throw new AppError('NOT_FOUND');
      return { contentType: row.content_type, bytes };
    },

    /**
     * Makes a campaign for the caller's customers under its audience, to go out at `send_at` (now by default).
     * A repeated idempotency key answers the first campaign.
     */
    async create(caller: RequestAuth, body: CampaignBody): Promise<Campaign> {
      if (body.idempotency_key) {
        const earlier = await ads.campaignByKey(caller.userId, body.idempotency_key);
        if (earlier !== undefined) return (await views([await visibleCampaign(caller, earlier)]))[0]!;
      }
      if (body.creative_id && !(await ads.creative(caller.accountId, ownRetailerOf(caller), body.creative_id))) {
        throw new AppError('VALIDATION_FAILED', { details: [{ field: 'creative_id', message: 'is not a picture you uploaded', rule: 'invalid' }] });
      }
      const sendAt = body.send_at ? new Date(body.send_at) : now();
      if (Number.isNaN(sendAt.getTime())) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'send_at', message: 'is not a time', rule: 'invalid' }] });
      if (body.send_at && sendAt.getTime() < now().getTime() - 60_000) {
        throw new AppError('VALIDATION_FAILED', { details: [{ field: 'send_at', message: 'must be now or later', rule: 'future_time' }] });
      }
      const ids = await audienceOf(caller, body);
      if (ids.length === 0) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'audience', message: 'has no customers', rule: 'required' }] });
      const id = await db.transaction((tx) => ads.insertCampaign({
        org_id: caller.orgId, account_id: caller.accountId, created_by: caller.userId, title: body.title.trim(), text: body.text.trim(), link: body.link ?? null,
        creative_id: body.creative_id ?? null, audience: body.audience, send_at: sendAt, idempotency_key: body.idempotency_key ?? null,
      }, ids, tx));
      const campaignId = id ?? (await ads.campaignByKey(caller.userId, body.idempotency_key!))!;
      told([{ account_id: caller.accountId, created_by: caller.userId }]);
      // Sending starts at once when it is due (the scheduler would otherwise take it on its next turn).
      setImmediate(() => void runDue().catch(() => undefined));
      return (await views([await visibleCampaign(caller, campaignId)]))[0]!;
    },

    async list(caller: RequestAuth, page: number, limit: number): Promise<CampaignList> {
      const rows = await ads.campaigns(caller.accountId, ownRetailerOf(caller), limit, (page - 1) * limit);
      return { items: await views(rows.slice(0, limit)), page, has_more: rows.length > limit };
    },

    async campaign(caller: RequestAuth, id: number): Promise<Campaign> {
      return (await views([await visibleCampaign(caller, id)]))[0]!;
    },

    async targets(caller: RequestAuth, query: { campaign_id: number; state?: (typeof AD_TARGET_STATES)[number]; page: number; limit: number }): Promise<CampaignTargets> {
      await visibleCampaign(caller, query.campaign_id);
      const rows = await ads.targets(query.campaign_id, query.state, query.limit, (query.page - 1) * query.limit);
      return { items: rows.slice(0, query.limit).map((r) => ({ ...r, updated_at: r.updated_at.toISOString() })), page: query.page, has_more: rows.length > query.limit };
    },

    async cancel(caller: RequestAuth, id: number): Promise<Campaign> {
      const row = await visibleCampaign(caller, id);
      if (!(await ads.cancel(row.id))) throw new AppError('CAMPAIGN_FINISHED');
      told([{ account_id: row.account_id, created_by: row.created_by }]);
      return (await views([await visibleCampaign(caller, id)]))[0]!;
    },

    async settings(caller: RequestAuth): Promise<AdSettings> {
      const caps = await ads.caps(caller.orgId).catch(() => AD_DEFAULT_CAPS);
      return { per_day: caps.per_day, per_week: caps.per_week, send_hours: { from: hours.from, to: hours.to } };
    },

    /**
     * Sends what is due: outside the sending hours due campaigns wait (marked so); inside, chunk after chunk until
     * nothing is due. Each chunk's offers are published after its transaction commits. Returns the offers written.
     */
    runDue,

    /** A phone's report moved offers: the consoles listing those campaigns hear of it. */
    async offersMoved(commandIds: string[]): Promise<void> {
      told(await ads.campaignsOfCommands(commandIds));
    },

    async announcement(caller: RequestAuth): Promise<Announcement | null> {
      const row = await ads.announcement(caller.orgId, caller.userId);
      return row ? { ...row, created_at: row.created_at.toISOString() } : null;
    },

    async dismiss(caller: RequestAuth, announcementId: number): Promise<void> {
      if (!(await ads.dismiss(caller.orgId, caller.userId, announcementId))) throw new AppError('NOT_FOUND');
    },
  };
}
export type AdsService = ReturnType<typeof createAdsService>;
