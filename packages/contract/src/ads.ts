/**
 * Offers to customers' phones (send_advertisement) and the operator's announcements to retailers (the
 * console's showAd). A campaign goes out through the device channel as `offer` commands, under rules the
 * server enforces: never to a locked phone, promotional sends only 09:00-21:00 India time, a per-phone cap per
 * day and per week, never to a customer who opted out, and once per phone per campaign.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { CUSTOMER_STATUS_FILTERS } from '@kisht/domain/customer-status';
import { IsoDate } from './customers.ts';
import { Id, MultilineText, Page } from './fields.ts';

/** The creative as the spec asks: at most 1200 x 1200, quality 0.8, JPEG or PNG as it came, 5 MB at most. */
export const AD_CREATIVE = { maxBytes: 5 * 1024 * 1024, longestSide: 1200, jpegQuality: 80 } as const;
/** Promotional sends go out from 09:00 to 21:00 India time; a campaign due outside waits for 09:00. */
export const AD_SEND_HOURS = { from: 9, to: 21 } as const;
/** Per phone, by default (an organisation setting). */
export const AD_DEFAULT_CAPS = { per_day: 1, per_week: 3 } as const;
/** How long an offer waits for an offline phone before it expires. */
export const AD_OFFER_HOURS = 24;

export const AD_SKIP_REASONS = ['locked', 'opted_out', 'daily_cap', 'weekly_cap', 'no_phone'] as const;
export type AdSkipReason = (typeof AD_SKIP_REASONS)[number];
export const AD_TARGET_STATES = ['pending', 'skipped', 'sent', 'delivered', 'opened', 'failed', 'expired'] as const;
export type AdTargetState = (typeof AD_TARGET_STATES)[number];
export const CAMPAIGN_STATUSES = ['scheduled', 'waiting', 'sending', 'sent', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** POST /api/ads/creative (multipart, field `file`): the stored picture, ready to name in a campaign. */
export const AdCreative = Type.Object({
  creative_id: Type.String({ format: 'uuid' }),
  url: Type.String({ description: 'Where the console shows it from (signed-in)' }),
  width: Type.Integer(),
  height: Type.Integer(),
  bytes: Type.Integer(),
  content_type: Type.Unsafe<'image/jpeg' | 'image/png'>({ type: 'string', enum: ['image/jpeg', 'image/png'] }),
});
export type AdCreative = Static<typeof AdCreative>;

/** Who a campaign is for: every customer of the caller's (sub)network, those of a list status, a list filter, or picked ones. */
export const Audience = Type.Union([
  Type.Object({ kind: Type.Literal('all') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('filter'), status: Type.Optional(Type.Unsafe<(typeof CUSTOMER_STATUS_FILTERS)[number]>({ type: 'string', enum: [...CUSTOMER_STATUS_FILTERS] })), search: Type.Optional(Type.String({ maxLength: 60 })), lock_status: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })), from: Type.Optional(IsoDate), to: Type.Optional(IsoDate) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('picked'), customer_ids: Type.Array(Id, { minItems: 1, maxItems: 20000, uniqueItems: true }) }, { additionalProperties: false }),
]);
export type Audience = Static<typeof Audience>;

export const CampaignBody = Type.Object(
  {
    /** Words, not only spaces. */
    title: Type.String({ minLength: 1, maxLength: 65, pattern: '\\S' }),
    text: MultilineText({ minLength: 1, maxLength: 240, pattern: '\\S' }),
    link: Type.Optional(Type.String({ maxLength: 500, pattern: '^https://[^\\s]+$' })),
    creative_id: Type.Optional(Type.String({ format: 'uuid' })),
    audience: Audience,
    /** ISO date-time; omitted: now (or 09:00 India time when it is outside the sending hours). */
    send_at: Type.Optional(Type.String({ format: 'date-time' })),
    idempotency_key: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' })),
  },
  { additionalProperties: false },
);
export type CampaignBody = Static<typeof CampaignBody>;

const Counts = Type.Object({
  targeted: Type.Integer(), pending: Type.Integer(), skipped: Type.Integer(), sent: Type.Integer(), delivered: Type.Integer(),
  opened: Type.Integer(), failed: Type.Integer(), expired: Type.Integer(),
});
/** Skipped (and refused) phones by reason: every reason of AD_SKIP_REASONS, 0 when none, and `other` for a phone's unknown one. */
const SkipCounts = Type.Record(Type.String(), Type.Integer());

export const Campaign = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  text: Type.String(),
  link: Nullable(Type.String()),
  image_url: Nullable(Type.String()),
  audience: Audience,
  status: Type.Unsafe<CampaignStatus>({ type: 'string', enum: [...CAMPAIGN_STATUSES] }),
  send_at: Type.String(),
  created_at: Type.String(),
  created_by: Type.String(),
  counts: Counts,
  skipped: SkipCounts,
});
export type Campaign = Static<typeof Campaign>;

export const CampaignList = Type.Object({ items: Type.Array(Campaign), page: Type.Integer(), has_more: Type.Boolean() });
export type CampaignList = Static<typeof CampaignList>;
export const CampaignListQuery = Type.Object({ page: Page, limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 }) });

export const CampaignIdQuery = Type.Object({ campaign_id: Id });
export const CampaignIdBody = Type.Object({ campaign_id: Id }, { additionalProperties: false });

/** One phone of a campaign: what became of the offer, and why it was skipped. */
export const CampaignTarget = Type.Object({
  customer_id: Type.Integer(),
  name: Type.String(),
  state: Type.Unsafe<AdTargetState>({ type: 'string', enum: [...AD_TARGET_STATES] }),
  reason: Nullable(Type.String()),
  updated_at: Type.String(),
});
export const CampaignTargets = Type.Object({ items: Type.Array(CampaignTarget), page: Type.Integer(), has_more: Type.Boolean() });
export type CampaignTargets = Static<typeof CampaignTargets>;
export const CampaignTargetsQuery = Type.Object({
  campaign_id: Id,
  state: Type.Optional(Type.Unsafe<AdTargetState>({ type: 'string', enum: [...AD_TARGET_STATES] })),
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
});

/** The organisation's per-phone caps (GET /api/ads/settings). */
export const AdSettings = Type.Object({ per_day: Type.Integer(), per_week: Type.Integer(), send_hours: Type.Object({ from: Type.Integer(), to: Type.Integer() }) });
export type AdSettings = Static<typeof AdSettings>;

/** An announcement from the operator to retailers: shown once on load until dismissed. */
export const Announcement = Type.Object({ id: Type.Integer(), title: Type.String(), text: Type.String(), link: Nullable(Type.String()), created_at: Type.String() });
export type Announcement = Static<typeof Announcement>;
export const AnnouncementIdBody = Type.Object({ announcement_id: Id }, { additionalProperties: false });
