/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  audienceOf,
  campaignBody,
  campaignErrorsFromServer,
  emptyCampaignDraft,
  formatHour,
  indiaHour,
  istSendAt,
  nextWholeHour,
  sendsAllDay,
  validateCampaign,
  waitsForSendingHours,
  type CampaignDraft,
} from './campaign-form.ts';

const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const inEnglish = (key: string) => typeof key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], EN) === 'string';

/** 10:00 India time on 1 July 2026. */
const NOW = new Date('2026-07-01T04:30:00.000Z');
const filled: CampaignDraft = { ...emptyCampaignDraft(), title: '  Diwali offer ', text: ' Screen guard free with any recharge.\nThis week only. ' };

describe('the offer form', () => {
  it('asks for a title and a message, within the server limits', () => {
    expect(validateCampaign(emptyCampaignDraft(), NOW)).toEqual({ title: { key: 'common.required' }, text: { key: 'common.required' } });
    expect(validateCampaign({ ...filled, title: '   ' }, NOW).title).toEqual({ key: 'common.required' });
    expect(validateCampaign(filled, NOW)).toEqual({});
    expect(validateCampaign({ ...filled, title: 'x'.repeat(66) }, NOW).title).toEqual({ key: 'addCustomer.errors.tooLong', vars: { count: 65 } });
    expect(validateCampaign({ ...filled, title: ` ${'x'.repeat(65)} ` }, NOW).title).toBeUndefined();
    expect(validateCampaign({ ...filled, text: 'y'.repeat(241) }, NOW).text).toEqual({ key: 'addCustomer.errors.tooLong', vars: { count: 240 } });
    // A long Tamil message counts its letters as the server does.
    expect(validateCampaign({ ...filled, text: 'சலுகை'.repeat(48) }, NOW).text).toBeUndefined();
  });

  it('takes only an https link without spaces', () => {
    expect(validateCampaign({ ...filled, link: 'https://shop.example/diwali?x=1' }, NOW).link).toBeUndefined();
    for (const bad of ['http://shop.example', 'shop.example', 'https://', 'https://shop example', `https://${'a'.repeat(500)}`]) {
      expect(validateCampaign({ ...filled, link: bad }, NOW).link, bad).toEqual({ key: 'ads.form.errors.link' });
    }
  });

  it('needs someone picked, and a send time ahead of now read as India time', () => {
    expect(validateCampaign({ ...filled, audience: 'picked' }, NOW).audience).toEqual({ key: 'ads.form.errors.pickSomeone' });
    expect(validateCampaign({ ...filled, audience: 'picked', picked: [4] }, NOW)).toEqual({});
    expect(validateCampaign({ ...filled, when: 'later' }, NOW).sendAt).toEqual({ key: 'common.required' });
    expect(validateCampaign({ ...filled, when: 'later', sendAt: '2026-02-30T10:00' }, NOW).sendAt).toEqual({ key: 'ads.form.errors.sendAt' });
    expect(validateCampaign({ ...filled, when: 'later', sendAt: '2026-07-01T10:00' }, NOW).sendAt).toEqual({ key: 'ads.form.errors.sendAtPast' });
    expect(validateCampaign({ ...filled, when: 'later', sendAt: '2026-07-01T10:01' }, NOW)).toEqual({});
    // "Now" ignores a time typed before switching back.
    expect(validateCampaign({ ...filled, when: 'now', sendAt: '2020-01-01T00:00' }, NOW)).toEqual({});
    for (const error of Object.values(validateCampaign({ ...emptyCampaignDraft(), link: 'x', audience: 'picked', when: 'later', sendAt: 'x' }, NOW))) {
      const key = (error as { key: string }).key;
      expect(inEnglish(key), key).toBe(true);
    }
  });

  it('sends who it is for: everyone, only the filters that narrow the list, or the picked customers once each', () => {
    expect(audienceOf(filled)).toEqual({ kind: 'all' });
    expect(audienceOf({ ...filled, audience: 'filter' })).toEqual({ kind: 'filter' });
    expect(audienceOf({ ...filled, audience: 'filter', status: 'install', search: '  Diwali   Fleet ', lock: '0' })).toEqual({ kind: 'filter', status: 'install', search: 'Diwali Fleet', lock_status: 0 });
    expect(audienceOf({ ...filled, audience: 'filter', lock: '1' })).toEqual({ kind: 'filter', lock_status: 1 });
    expect(audienceOf({ ...filled, audience: 'picked', picked: [3, 9, 3] })).toEqual({ kind: 'picked', customer_ids: [3, 9] });
  });

  it('sends trimmed words, no empty optional field, and the send time in UTC', () => {
    expect(campaignBody(filled, 'key-12345678')).toEqual({
      title: 'Diwali offer', text: 'Screen guard free with any recharge.\nThis week only.', audience: { kind: 'all' }, idempotency_key: 'key-12345678',
    });
    const later = campaignBody({ ...filled, link: ' https://shop.example/d ', creativeId: '0f8fad5b-d9cb-469f-a165-70867728950e', when: 'later', sendAt: '2026-07-02T09:30' }, 'key-12345678');
    expect(later).toMatchObject({ link: 'https://shop.example/d', creative_id: '0f8fad5b-d9cb-469f-a165-70867728950e', send_at: '2026-07-02T04:00:00.000Z' });
    expect(istSendAt({ when: 'later', sendAt: '2026-07-02T09:30' })?.toISOString()).toBe('2026-07-02T04:00:00.000Z');
    expect(istSendAt({ when: 'now', sendAt: '2026-07-02T09:30' })).toBeNull();
  });

  it("places the server's refusals on their fields, and an audience of nobody in its own words", () => {
    expect(campaignErrorsFromServer({
      code: 'VALIDATION_FAILED', message: 'Check',
      details: [{ field: 'title', message: 'too long' }, { field: 'audience.customer_ids', message: 'must have items' }, { field: 'send_at', message: 'must be now or later', rule: 'future_time' }, { field: 'creative_id', message: 'not yours' }, { field: 'other', message: 'x' }],
    })).toEqual({ title: { text: 'too long' }, audience: { text: 'must have items' }, sendAt: { text: 'must be now or later' }, creativeId: { text: 'not yours' } });
    expect(campaignErrorsFromServer({ code: 'VALIDATION_FAILED', message: 'Check', details: [{ field: 'audience', message: 'has no customers', rule: 'required' }] }))
      .toEqual({ audience: { key: 'ads.form.errors.noAudience' } });
    expect(campaignErrorsFromServer({ code: 'NOT_FOUND', message: 'Not found' })).toEqual({});
  });
});

describe('the sending hours', () => {
  const hours = { from: 9, to: 21 };
  it('reads the hour in India and says when an offer would wait', () => {
    expect(indiaHour(NOW)).toBe(10);
    expect(waitsForSendingHours(NOW, hours)).toBe(false);
    expect(waitsForSendingHours(new Date('2026-07-01T15:30:00.000Z'), hours)).toBe(true); // 21:00 India
    expect(waitsForSendingHours(new Date('2026-07-01T03:29:00.000Z'), hours)).toBe(true); // 08:59 India
    expect(sendsAllDay({ from: 0, to: 24 })).toBe(true);
    expect(waitsForSendingHours(new Date('2026-07-01T20:00:00.000Z'), { from: 0, to: 24 })).toBe(false);
  });

  it('writes whole hours as the console writes times', () => {
    expect([formatHour(9), formatHour(21), formatHour(0), formatHour(12), formatHour(24)]).toEqual(['09:00 AM', '09:00 PM', '12:00 AM', '12:00 PM', '12:00 AM']);
  });

  it('offers the next whole hour in India to schedule', () => {
    expect(nextWholeHour(NOW).toISOString()).toBe('2026-07-01T05:30:00.000Z');
    expect(nextWholeHour(new Date('2026-07-01T04:10:00.000Z')).toISOString()).toBe('2026-07-01T04:30:00.000Z');
  });
});
