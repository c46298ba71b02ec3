/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Campaign } from '@kisht/contract/ads';
import {
  audienceSummary,
  CAMPAIGN_STATUS_LABEL_KEYS,
  campaignPollMs,
  campaignProgress,
  isCampaignOpen,
  outcomeBars,
  reasonKey,
  SKIP_REASON_LABEL_KEYS,
  skipReasons,
  TARGET_STATE_LABEL_KEYS,
} from './campaign-outcomes.ts';
import { shownValue, wasShown } from './announcement-seen.ts';

const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const inEnglish = (key: string) => typeof key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], EN) === 'string';

const counts = (over: Partial<Campaign['counts']> = {}): Campaign['counts'] => ({ targeted: 0, pending: 0, skipped: 0, sent: 0, delivered: 0, opened: 0, failed: 0, expired: 0, ...over });
const skipped = (over: Record<string, number> = {}) => ({ locked: 0, opted_out: 0, daily_cap: 0, weekly_cap: 0, no_phone: 0, ...over });

describe('how a campaign reads', () => {
  it('has words for every status, phone state and skip reason', () => {
    for (const key of [...Object.values(CAMPAIGN_STATUS_LABEL_KEYS), ...Object.values(TARGET_STATE_LABEL_KEYS), ...Object.values(SKIP_REASON_LABEL_KEYS), 'ads.reason.other']) {
      expect(inEnglish(key), key).toBe(true);
    }
    for (const bar of outcomeBars({ counts: counts() })) expect(inEnglish(bar.labelKey), bar.labelKey).toBe(true);
  });

  it('says why a phone was skipped or refused, and any other refusal as "could not show it"', () => {
    expect(reasonKey('locked')).toBe('ads.reason.locked');
    expect(reasonKey('opted_out')).toBe('ads.reason.opted_out');
    expect(reasonKey('daily_cap')).toBe('ads.reason.daily_cap');
    expect(reasonKey('bad_payload')).toBe('ads.reason.other');
    expect(reasonKey(null)).toBeNull();
  });

  it('counts a phone done once its outcome is known, as a bulk lock does', () => {
    // 20 phones: 17 shown (2 of them opened), 3 skipped.
    const done = { status: 'sent' as const, counts: counts({ targeted: 20, skipped: 3, delivered: 17, opened: 2 }) };
    expect(campaignProgress(done)).toEqual({ total: 20, finished: 20, running: false });
    const going = { status: 'sent' as const, counts: counts({ targeted: 20, skipped: 3, sent: 5, delivered: 12 }) };
    expect(campaignProgress(going)).toEqual({ total: 20, finished: 15, running: true });
    expect(campaignProgress({ status: 'scheduled', counts: counts({ targeted: 4, pending: 4 }) })).toEqual({ total: 4, finished: 0, running: true });
    expect(campaignProgress({ status: 'cancelled', counts: counts({ targeted: 4, pending: 3, delivered: 1 }) }).running).toBe(false);
    expect(campaignPollMs(true, false)).toBeGreaterThan(0);
    expect(campaignPollMs(true, true)).toBe(0);
    expect(campaignPollMs(false, false)).toBe(0);
  });

  it('may be stopped until it has gone out', () => {
    expect(['scheduled', 'waiting', 'sending'].every((s) => isCampaignOpen(s as Campaign['status']))).toBe(true);
    expect(isCampaignOpen('sent')).toBe(false);
    expect(isCampaignOpen('cancelled')).toBe(false);
  });

  it('charts each outcome against the phones targeted, a small one still visible', () => {
    const bars = outcomeBars({ counts: counts({ targeted: 200, skipped: 1, delivered: 150, opened: 30, sent: 9, pending: 40 }) });
    expect(bars.map((b) => [b.key, b.value, b.percent])).toEqual([
      ['delivered', 150, 75], ['opened', 30, 15], ['skipped', 1, 1], ['failed', 0, 0], ['expired', 0, 0], ['waiting', 49, 25],
    ]);
    expect(outcomeBars({ counts: counts() }).every((b) => b.percent === 0)).toBe(true);
  });

  it('lists only the skip reasons that happened, in a fixed order', () => {
    expect(skipReasons({ skipped: skipped({ opted_out: 1, locked: 2 }) })).toEqual([
      { reason: 'locked', labelKey: 'ads.reason.locked', count: 2 },
      { reason: 'opted_out', labelKey: 'ads.reason.opted_out', count: 1 },
    ]);
    expect(skipReasons({ skipped: skipped() })).toEqual([]);
  });

  it('says who a campaign was for', () => {
    expect(audienceSummary({ kind: 'all' })).toEqual({ key: 'ads.audience.summary.all', parts: [] });
    expect(audienceSummary({ kind: 'picked', customer_ids: [1, 2, 3] })).toEqual({ key: 'ads.audience.summary.picked', count: 3, parts: [] });
    expect(audienceSummary({ kind: 'filter', status: 'install', lock_status: 0, search: 'Diwali' })).toEqual({
      key: 'ads.audience.summary.filter', parts: [{ key: 'customerStatus.install' }, { key: 'lockStatus.unlocked' }, { text: '“Diwali”' }],
    });
    // A filter that narrows nothing is everyone.
    expect(audienceSummary({ kind: 'filter', status: 'all' }).key).toBe('ads.audience.summary.all');
    for (const key of ['ads.audience.summary.all', 'ads.audience.summary.filter', 'ads.audience.summary.picked']) expect(inEnglish(key), key).toBe(true);
  });
});

describe('the announcement shown once', () => {
  it('remembers which announcement was shown to which user here', () => {
    const stored = shownValue('7', 3);
    expect(wasShown(stored, '7', 3)).toBe(true);
    expect(wasShown(stored, '7', 4)).toBe(false);
    expect(wasShown(stored, '8', 3)).toBe(false);
    expect(wasShown(null, '7', 3)).toBe(false);
  });
});
