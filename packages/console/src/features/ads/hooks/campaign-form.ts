/**
 * The offer form (send_advertisement): what the retailer fills in (title, text, an optional https link and picture,
 * who gets it, now or at a time), the checks made before sending (the server's limits, in the user's language), the
 * request it becomes, and the server's refusals placed on the fields they concern.
 */
import type { AdSettings, Audience, CampaignBody } from '@kisht/contract/ads';
import type { CustomerStatusFilter } from '@kisht/domain/customer-status';
import { istInputToIso } from '../../../shared/ist-datetime.ts';
import { searchText } from '../../../shared/list-search.ts';

/** The server's limits (contract/ads.ts CampaignBody). */
export const TITLE_MAX = 65;
export const TEXT_MAX = 240;
export const LINK_MAX = 500;
const LINK_PATTERN = /^https:\/\/[^\s]+$/;

export type AudienceKind = Audience['kind'];
export const AUDIENCE_KINDS: readonly AudienceKind[] = ['all', 'filter', 'picked'];
/** The lock filter as the select holds it: every phone, unlocked (0) or locked (1). */
export type LockChoice = 'all' | '0' | '1';

export interface CampaignDraft {
  title: string;
  text: string;
  link: string;
  /** The uploaded picture (POST /api/ads/creative), or none. */
  creativeId: string | null;
  audience: AudienceKind;
  /** The customer list's filters, for a filter audience and for finding customers to pick. */
  search: string;
  status: CustomerStatusFilter;
  lock: LockChoice;
  picked: readonly number[];
  when: 'now' | 'later';
  /** datetime-local, read as India time. */
  sendAt: string;
}

export type CampaignField = 'title' | 'text' | 'link' | 'creativeId' | 'audience' | 'sendAt';
export type FieldError = { key: string; vars?: Record<string, string | number> } | { text: string };
export type CampaignErrors = Partial<Record<CampaignField, FieldError>>;

export const emptyCampaignDraft = (): CampaignDraft => ({
  title: '', text: '', link: '', creativeId: null, audience: 'all', search: '', status: 'all', lock: 'all', picked: [], when: 'now', sendAt: '',
});

const REQUIRED: FieldError = { key: 'common.required' };
const tooLong = (count: number): FieldError => ({ key: 'addCustomer.errors.tooLong', vars: { count } });

/** What must be right before sending; `now` decides whether a chosen time has passed. */
export function validateCampaign(d: CampaignDraft, now: Date): CampaignErrors {
  const errors: CampaignErrors = {};
  const title = d.title.trim();
  if (!title) errors.title = REQUIRED;
  else if (title.length > TITLE_MAX) errors.title = tooLong(TITLE_MAX);
  const text = d.text.trim();
  if (!text) errors.text = REQUIRED;
  else if (text.length > TEXT_MAX) errors.text = tooLong(TEXT_MAX);
  const link = d.link.trim();
  if (link && (link.length > LINK_MAX || !LINK_PATTERN.test(link))) errors.link = { key: 'ads.form.errors.link' };
  if (d.audience === 'picked' && d.picked.length === 0) errors.audience = { key: 'ads.form.errors.pickSomeone' };
  if (d.when === 'later') {
    const at = d.sendAt ? istInputToIso(d.sendAt) : null;
    if (!d.sendAt) errors.sendAt = REQUIRED;
    else if (!at) errors.sendAt = { key: 'ads.form.errors.sendAt' };
    else if (Date.parse(at) <= now.getTime()) errors.sendAt = { key: 'ads.form.errors.sendAtPast' };
  }
  return errors;
}

/** Who the campaign is for, as the server takes it: a filter sends only what narrows the list. */
export function audienceOf(d: Pick<CampaignDraft, 'audience' | 'search' | 'status' | 'lock' | 'picked'>): Audience {
  if (d.audience === 'all') return { kind: 'all' };
  if (d.audience === 'picked') return { kind: 'picked', customer_ids: [...new Set(d.picked)] };
  const search = searchText(d.search);
  return {
    kind: 'filter',
    ...(d.status !== 'all' ? { status: d.status } : {}),
    ...(search ? { search } : {}),
    ...(d.lock !== 'all' ? { lock_status: Number(d.lock) } : {}),
  };
}

/** The request for a checked draft. `idempotencyKey` stays the same for one offer, so a repeated tap makes one campaign. */
export function campaignBody(d: CampaignDraft, idempotencyKey: string): CampaignBody {
  const link = d.link.trim();
  const sendAt = d.when === 'later' ? istInputToIso(d.sendAt) : null;
  return {
    title: d.title.trim(),
    text: d.text.trim(),
    ...(link ? { link } : {}),
    ...(d.creativeId ? { creative_id: d.creativeId } : {}),
    audience: audienceOf(d),
    ...(sendAt ? { send_at: sendAt } : {}),
    idempotency_key: idempotencyKey,
  };
}

const SERVER_FIELDS: Record<string, CampaignField> = { title: 'title', text: 'text', link: 'link', creative_id: 'creativeId', send_at: 'sendAt', audience: 'audience' };

/** The server's VALIDATION_FAILED details on the fields they name; an audience with nobody in it says so in its own words. */
export function campaignErrorsFromServer(failure: { code: string; message: string; details?: readonly { field: string; message: string; rule?: string }[] }): CampaignErrors {
  const errors: CampaignErrors = {};
  for (const { field, message, rule } of failure.details ?? []) {
    const name = field.replace(/^body\./, '');
    const target = SERVER_FIELDS[name.split('.')[0]!];
    if (!target || errors[target]) continue;
    errors[target] = target === 'audience' && rule === 'required' ? { key: 'ads.form.errors.noAudience' } : { text: message };
  }
  return errors;
}

/** The chosen send time, or null for "now" (or a time that is not one). */
export function istSendAt(d: Pick<CampaignDraft, 'when' | 'sendAt'>): Date | null {
  if (d.when !== 'later') return null;
  const iso = istInputToIso(d.sendAt);
  return iso ? new Date(iso) : null;
}

/** The hour in India (UTC+05:30) of an instant. */
export function indiaHour(at: Date): number {
  return new Date(at.getTime() + 330 * 60_000).getUTCHours();
}

/** Whether offers go out at every hour (the sending hours cover the whole day). */
export const sendsAllDay = (hours: AdSettings['send_hours']) => hours.from <= 0 && hours.to >= 24;

/** Whether an offer due at `at` would wait for the sending hours to open (then it goes out at `from`). */
export function waitsForSendingHours(at: Date, hours: AdSettings['send_hours']): boolean {
  if (sendsAllDay(hours)) return false;
  const hour = indiaHour(at);
  return hour < hours.from || hour >= hours.to;
}

/** A whole hour as the console writes times (hh:mm A): 9 -> "09:00 AM", 21 -> "09:00 PM", 0 and 24 -> "12:00 AM". */
export function formatHour(hour: number): string {
  const h = ((hour % 24) + 24) % 24;
  const twelve = h % 12 === 0 ? 12 : h % 12;
  return `${String(twelve).padStart(2, '0')}:00 ${h < 12 ? 'AM' : 'PM'}`;
}

/** The send time the form offers first: the next whole hour in India. */
export function nextWholeHour(now: Date): Date {
  const next = new Date(now.getTime());
  next.setUTCMinutes(now.getUTCMinutes() < 30 ? 30 : 90, 0, 0);
  return next;
}
