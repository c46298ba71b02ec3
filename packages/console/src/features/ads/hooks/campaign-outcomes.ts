/**
 * How a campaign's results read: its status, each phone's state and the reason it was skipped or refused in words,
 * the progress (phones whose outcome is known, of those targeted, as a bulk lock counts it), the outcome bars, the
 * skip reasons that happened, and who the campaign was for.
 */
import { AD_SKIP_REASONS, AD_TARGET_STATES, type AdSkipReason, type AdTargetState, type Audience, type Campaign, type CampaignStatus } from '@kisht/contract/ads';
import { INSTALL_STATUS_LABEL_KEYS, installStatusOf } from '@kisht/domain/customer-status';
import type { Tone } from '../../../shared/ui/status-badges.tsx';

export const CAMPAIGN_STATUS_LABEL_KEYS: Record<CampaignStatus, string> = {
  scheduled: 'ads.status.scheduled',
  waiting: 'ads.status.waiting',
  sending: 'ads.status.sending',
  sent: 'ads.status.sent',
  cancelled: 'ads.status.cancelled',
};

export const CAMPAIGN_STATUS_TONE: Record<CampaignStatus, Tone> = { scheduled: 'info', waiting: 'warning', sending: 'info', sent: 'success', cancelled: 'neutral' };

export const TARGET_STATE_LABEL_KEYS: Record<AdTargetState, string> = {
  pending: 'ads.state.pending',
  skipped: 'ads.state.skipped',
  sent: 'ads.state.sent',
  delivered: 'ads.state.delivered',
  opened: 'ads.state.opened',
  failed: 'ads.state.failed',
  expired: 'ads.state.expired',
};

export const TARGET_STATE_TONE: Record<AdTargetState, Tone> = {
  pending: 'info', skipped: 'warning', sent: 'info', delivered: 'success', opened: 'success', failed: 'danger', expired: 'neutral',
};

export const SKIP_REASON_LABEL_KEYS: Record<AdSkipReason, string> = {
  locked: 'ads.reason.locked',
  opted_out: 'ads.reason.opted_out',
  daily_cap: 'ads.reason.daily_cap',
  weekly_cap: 'ads.reason.weekly_cap',
  no_phone: 'ads.reason.no_phone',
};

const isSkipReason = (reason: string): reason is AdSkipReason => (AD_SKIP_REASONS as readonly string[]).includes(reason);

/** Why a phone was skipped or refused the offer, in words; another error of the phone reads as "could not show it". */
export function reasonKey(reason: string | null): string | null {
  if (!reason) return null;
  return isSkipReason(reason) ? SKIP_REASON_LABEL_KEYS[reason] : 'ads.reason.other';
}

/** The per-phone list's state filter: every phone, or one state. */
export type TargetFilter = 'all' | AdTargetState;
export const TARGET_FILTERS: readonly TargetFilter[] = ['all', ...AD_TARGET_STATES];

/** Not sent yet, or still going out: it can be stopped. */
export const isCampaignOpen = (status: CampaignStatus) => status === 'scheduled' || status === 'waiting' || status === 'sending';

export interface CampaignProgress {
  total: number;
  /** Phones whose outcome is known: shown (and maybe opened), skipped, refused or expired. */
  finished: number;
  /** Phones are still to be decided or to answer: the screen keeps reading. */
  running: boolean;
}

export function campaignProgress(c: Pick<Campaign, 'status' | 'counts'>): CampaignProgress {
  const { counts } = c;
  // `delivered` counts the opened offers too (an opened offer was shown first).
  const finished = counts.skipped + counts.delivered + counts.failed + counts.expired;
  return { total: counts.targeted, finished, running: isCampaignOpen(c.status) || counts.sent > 0 };
}

/** Without the server's event stream an open screen reads a campaign this often while it is running. */
export const CAMPAIGN_FALLBACK_POLL_MS = 5000;
export const campaignPollMs = (running: boolean, streamLive: boolean) => (running && !streamLive ? CAMPAIGN_FALLBACK_POLL_MS : 0);

export interface OutcomeBar {
  key: 'delivered' | 'opened' | 'skipped' | 'failed' | 'expired' | 'waiting';
  labelKey: string;
  value: number;
  tone: Tone;
  /** Share of the phones targeted, 0-100 (whole numbers; a bar above zero shows at least a sliver). */
  percent: number;
}

/** The outcome chart's rows: shown, opened, skipped, refused, expired and still waiting, each against the phones targeted. */
export function outcomeBars(c: Pick<Campaign, 'counts'>): OutcomeBar[] {
  const { counts } = c;
  const rows: Array<Omit<OutcomeBar, 'percent'>> = [
    { key: 'delivered', labelKey: 'ads.chart.delivered', value: counts.delivered, tone: 'success' },
    { key: 'opened', labelKey: 'ads.chart.opened', value: counts.opened, tone: 'info' },
    { key: 'skipped', labelKey: 'ads.chart.skipped', value: counts.skipped, tone: 'warning' },
    { key: 'failed', labelKey: 'ads.chart.failed', value: counts.failed, tone: 'danger' },
    { key: 'expired', labelKey: 'ads.chart.expired', value: counts.expired, tone: 'neutral' },
    { key: 'waiting', labelKey: 'ads.chart.waiting', value: counts.pending + counts.sent, tone: 'info' },
  ];
  return rows.map((row) => ({ ...row, percent: counts.targeted > 0 && row.value > 0 ? Math.max(1, Math.round((row.value / counts.targeted) * 100)) : 0 }));
}

/** The reasons phones were skipped or refused the offer, with how many, in a fixed order; none that did not happen. */
export function skipReasons(c: Pick<Campaign, 'skipped'>): Array<{ reason: AdSkipReason; labelKey: string; count: number }> {
  return AD_SKIP_REASONS.flatMap((reason) => {
    const count = c.skipped[reason] ?? 0;
    return count > 0 ? [{ reason, labelKey: SKIP_REASON_LABEL_KEYS[reason], count }] : [];
  });
}

/** One piece of an audience's description: words to translate, or text as the retailer typed it. */
export type AudiencePart = { key: string } | { text: string };

/** Who a campaign was for: the summary's key (with the number picked) and, for a filter, what it narrowed by. */
export function audienceSummary(audience: Audience): { key: string; count?: number; parts: AudiencePart[] } {
  if (audience.kind === 'all') return { key: 'ads.audience.summary.all', parts: [] };
  if (audience.kind === 'picked') return { key: 'ads.audience.summary.picked', count: audience.customer_ids.length, parts: [] };
  const parts: AudiencePart[] = [];
  const status = audience.status ? installStatusOf(audience.status) : null;
  if (status !== null) parts.push({ key: INSTALL_STATUS_LABEL_KEYS[status] });
  if (audience.lock_status !== undefined) parts.push({ key: audience.lock_status === 1 ? 'lockStatus.locked' : 'lockStatus.unlocked' });
  if (audience.search) parts.push({ text: `“${audience.search}”` });
  return { key: parts.length > 0 ? 'ads.audience.summary.filter' : 'ads.audience.summary.all', parts };
}
