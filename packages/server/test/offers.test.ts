/**
 * Offers to customers' phones (issue 14, decision 029): a campaign's phones fixed from the caller's list, then
 * decided by the sender under the server's rules (no phone, locked, opted out, the daily and weekly caps, the
 * sending hours with a moved clock), offers published as device commands that real test phones receive and
 * report on, phones woken through the FCM adapter against the local fake, the picture a phone fetches with
 * its own credentials, and another network's, a sibling's and the parent's campaigns unseen.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPKCS8, generateKeyPair } from 'jose';
import type { Campaign } from '@kisht/contract/ads';
import type { OfferPayload } from '@kisht/protocol/messages';
import { startTestApp, RAVI, SUNITA, MEENA, ARJUN, type TestApp } from './harness.ts';
import { deviceFixtures } from './device-fixtures.ts';
import { solidPng } from './support/png.ts';
import type { TestPhone } from './phone.ts';
import { createFcmPush } from '../src/providers/push/fcm.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';
import { startFakeFcm, type FakeFcm } from './support/fake-fcm.ts';

let t: TestApp;
let ravi: string;
let sunita: string;
let meena: string;
let arjun: string;
let f: ReturnType<typeof deviceFixtures>;
let fcm: FakeFcm;
/** The sender's clock: 11:00 India time today, moved by the tests. */
let clock: Date;
const indiaTime = (hours: number, minutes = 0, dayOffset = 0) => {
  const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
  return new Date(Date.parse(`${today}T00:00:00+05:30`) + dayOffset * 86_400_000 + (hours * 60 + minutes) * 60_000);
};

beforeAll(async () => {
  const keys = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  fcm = await startFakeFcm({ publicKey: keys.publicKey });
  const push = createFcmPush({ projectId: fcm.projectId, clientEmail: fcm.clientEmail, privateKey: await exportPKCS8(keys.privateKey), tokenUri: fcm.tokenUri, baseUrl: fcm.baseUrl, sleep: async () => undefined });
  clock = indiaTime(11);
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 }, adsClock: () => clock, push });
  ravi = (await t.signIn(RAVI)).token;
  sunita = (await t.signIn(SUNITA)).token;
  meena = (await t.signIn(MEENA)).token;
  arjun = (await t.signIn(ARJUN)).token;
  f = deviceFixtures(t, () => ravi);
});
afterAll(async () => {
  await t.stop();
  await fcm.close();
});

const ads = () => t.services.ads;
const campaign = async (id: number, token = ravi) => (await t.get(`/api/ads/campaign?campaign_id=${id}`, { token })).json().data as Campaign;
async function send(body: Record<string, unknown>, token = ravi) {
  const res = await t.post('/api/ads/campaigns', { title: 'Diwali offer', text: 'Screen guard free with any recharge this week.', ...body }, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Campaign;
}
/** Acks what the phone was sent: shown (delivered), or refused with a reason. */
async function take(phone: TestPhone, outcome: 'delivered' | 'opened' | 'failed' = 'delivered') {
  const command = await phone.next();
  expect(command.type).toBe('offer');
  await phone.ack(command, outcome === 'failed' ? 'failed' : 'delivered', outcome === 'failed' ? { error: 'locked' } : undefined);
  if (outcome === 'opened') await phone.ack(command, 'done', { opened: true });
  return command;
}
async function settle(id: number, expected: (c: Campaign) => boolean) {
  for (let i = 0; i < 100; i++) {
    const c = await campaign(id);
    if (expected(c)) return c;
    await new Promise((r) => setTimeout(r, 30));
  }
  return campaign(id);
}

describe('a campaign', () => {
  it('reaches unlocked phones that did not opt out, skips the others with reasons, and counts what the phones report', async () => {
    const phones = await Promise.all(Array.from({ length: 5 }, () => f.phone()));
    const [a, b, c, locked, optedOut] = phones;
    await t.db.query('UPDATE customers SET lock_status = 1 WHERE id = $1', [locked!.customer.id]);
    await optedOut!.phone.send({ kind: 'offers_opt_out', opted_out: true } as never);
    await new Promise((r) => setTimeout(r, 100));
    const noPhone = await f.customer();
    const ids = [...phones.map((p) => p.customer.id), noPhone.id];

    const made = await send({ audience: { kind: 'picked', customer_ids: ids }, link: 'https://shop.example/diwali' });
    expect(made.counts.targeted).toBe(6);
    // Creating a due campaign starts sending at once; the sender's own turn finds nothing left.
    await ads().runDue();
    expect((await campaign(made.id)).counts).toMatchObject({ pending: 0, skipped: 3, sent: 3 });
    const offer = await take(a!.phone, 'opened');
    expect(offer.payload).toMatchObject({ campaign_id: made.id, title: 'Diwali offer', link: 'https://shop.example/diwali', image: null } satisfies Partial<OfferPayload>);
    await take(b!.phone);
    await take(c!.phone, 'failed');
    // Whatever else a phone says is counted as `other`, never as a key of its own.
    const odd = await f.phone();
    const oddCampaign = await send({ audience: { kind: 'picked', customer_ids: [odd.customer.id] } });
    await ads().runDue();
    const oddOffer = await odd.phone.next();
    await odd.phone.ack(oddOffer, 'failed', { error: 'constructor' });
    const oddResult = await settle(oddCampaign.id, (x) => x.counts.failed === 1);
    expect(oddResult.skipped).toMatchObject({ other: 1 });
    expect(Object.keys(oddResult.skipped).sort()).toEqual(['daily_cap', 'locked', 'no_phone', 'opted_out', 'other', 'weekly_cap']);
    await odd.phone.close();
    const result = await settle(made.id, (x) => x.counts.delivered === 2 && x.counts.failed === 1);
    expect(result).toMatchObject({
      status: 'sent',
      counts: { targeted: 6, pending: 0, skipped: 3, delivered: 2, opened: 1, failed: 1 },
      skipped: { locked: 2, opted_out: 1, no_phone: 1, daily_cap: 0, weekly_cap: 0 },
    });
    const targets = (await t.get(`/api/ads/campaign_targets?campaign_id=${made.id}&state=skipped`, { token: ravi })).json().data;
    expect(targets.items.map((x: { reason: string }) => x.reason).sort()).toEqual(['locked', 'no_phone', 'opted_out']);
    // Nothing reached the locked or opted-out phones.
    await expect(locked!.phone.next(300)).rejects.toThrow();
    await expect(optedOut!.phone.next(300)).rejects.toThrow();
    for (const p of phones) await p.phone.close();
  });

  it('holds a second offer the same day by the daily cap, and a fourth that week by the weekly cap', async () => {
    const { customer, phone } = await f.phone();
    const audience = { kind: 'picked', customer_ids: [customer.id] };
    const first = await send({ audience });
    await ads().runDue();
    await take(phone);
    const second = await send({ audience });
    await ads().runDue();
    expect((await campaign(second.id)).skipped.daily_cap).toBe(1);
    // Next two days: one each; the day after, the week's three are used up.
    for (const day of [1, 2]) {
      clock = indiaTime(10, 0, day);
      const next = await send({ audience });
      await ads().runDue();
      expect((await campaign(next.id)).counts.sent).toBe(1);
      await take(phone);
    }
    clock = indiaTime(10, 0, 3);
    const fourth = await send({ audience });
    await ads().runDue();
    expect((await campaign(fourth.id)).skipped.weekly_cap).toBe(1);
    // A week after the first, the first no longer counts.
    clock = indiaTime(10, 0, 7);
    const later = await send({ audience });
    await ads().runDue();
    expect((await campaign(later.id)).counts.sent).toBe(1);
    expect((await campaign(first.id)).counts.delivered).toBe(1);
    clock = indiaTime(11);
    await phone.close();
  });

  it('waits outside 09:00-21:00 India time, and goes out at nine', async () => {
    const { customer, phone } = await f.phone();
    clock = indiaTime(21, 0, 10);
    const late = await send({ audience: { kind: 'picked', customer_ids: [customer.id] } });
    expect(await ads().runDue()).toBe(0);
    expect((await campaign(late.id)).status).toBe('waiting');
    clock = indiaTime(8, 59, 11);
    expect(await ads().runDue()).toBe(0);
    clock = indiaTime(9, 0, 11);
    expect(await ads().runDue()).toBe(1);
    await take(phone);
    expect((await campaign(late.id)).status).toBe('sent');
    // Not shown after the sending hours: sent at 09:00 India time, the offer lasts the 12 hours to 21:00.
    const life = (await t.db.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM device_commands WHERE type = 'offer' ORDER BY created_at DESC LIMIT 1`,
    )).rows[0]!.minutes;
    expect(life).toBe(12 * 60);
    // A scheduled campaign waits for its time.
    const scheduled = await send({ audience: { kind: 'picked', customer_ids: [customer.id] }, send_at: indiaTime(10, 0, 12).toISOString() });
    expect(await ads().runDue()).toBe(0);
    expect((await campaign(scheduled.id)).status).toBe('scheduled');
    clock = indiaTime(10, 0, 12);
    expect(await ads().runDue()).toBe(1);
    await take(phone);
    clock = indiaTime(11);
    await phone.close();
  });

  it('wakes phones with a push token through FCM, and drops a token FCM calls unregistered', async () => {
    const woken = await f.phone();
    const gone = await f.phone();
    for (const [p, token] of [[woken, 'token-woken'], [gone, 'token-gone']] as const) {
      const res = await f.checkIn(p.device, { push_token: token });
      expect(res.statusCode, res.body).toBe(200);
    }
    fcm.script('token-gone', { status: 404, errorCode: 'UNREGISTERED' });
    clock = indiaTime(12, 0, 20);
    await send({ audience: { kind: 'picked', customer_ids: [woken.customer.id, gone.customer.id] } });
    await ads().runDue();
    const command = await take(woken.phone);
    expect(fcm.accepted.map((m) => m.message)).toContainEqual(expect.objectContaining({ token: 'token-woken', data: { type: 'offer', command_id: command.id } }));
    const tokens = (await t.db.query<{ id: string; push_token: string | null }>('SELECT id, push_token FROM devices WHERE id = ANY($1::uuid[])', [[woken.device.device_id, gone.device.device_id]])).rows;
    expect(Object.fromEntries(tokens.map((r) => [r.id, r.push_token]))).toEqual({ [woken.device.device_id]: 'token-woken', [gone.device.device_id]: null });
    clock = indiaTime(11);
    await woken.phone.close();
    await gone.phone.close();
  });

  it("sends the picture to the phone it was for, with the phone's own credentials only", async () => {
    const { customer, device, phone } = await f.phone();
    const other = await f.phone();
    const uploaded = await t.upload('/api/ads/creative', ravi, {}, { name: 'offer.png', type: 'image/png', bytes: solidPng(1600, 900) });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const creative = uploaded.json().data;
    expect(creative).toMatchObject({ width: 1200, height: 675, content_type: 'image/png' });
    clock = indiaTime(12, 0, 30);
    const made = await send({ audience: { kind: 'picked', customer_ids: [customer.id] }, creative_id: creative.creative_id });
    await ads().runDue();
    const offer = await take(phone);
    const path = (offer.payload as OfferPayload).image!;
    expect(path).toBe(`/api/device/offer_image?campaign_id=${made.id}`);
    // The picture in the console: the network's own only (a sibling, another network and a mini-retailer under Ravi see nothing).
    expect((await t.get(`/api/ads/creative_image?creative_id=${creative.creative_id}`, { token: ravi })).statusCode).toBe(200);
    for (const token of [meena, arjun, sunita]) expect((await t.get(`/api/ads/creative_image?creative_id=${creative.creative_id}`, { token })).statusCode).toBe(404);
    // Nor can they send it.
    expect((await t.post('/api/ads/campaigns', { title: 'X', text: 'Y', audience: { kind: 'all' }, creative_id: creative.creative_id }, { token: sunita })).json().details?.[0]).toMatchObject({ field: 'creative_id' });
    const mine = await t.app.inject({ method: 'GET', url: path, headers: { authorization: f.basic(device) } });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    const theirs = await t.app.inject({ method: 'GET', url: path, headers: { authorization: f.basic(other.device) } });
    expect(theirs.statusCode).toBe(404);
    const nobody = await t.app.inject({ method: 'GET', url: path });
    expect(nobody.statusCode).toBe(401);
    // A file that only claims to be an image is refused.
    const disguised = await t.upload('/api/ads/creative', ravi, {}, { name: 'offer.png', type: 'image/png', bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('<script>alert(1)</script>')]) });
    expect(disguised.statusCode).toBe(400);
    const text = await t.upload('/api/ads/creative', ravi, {}, { name: 'offer.png', type: 'image/png', bytes: Buffer.from('not an image') });
    expect(text.statusCode).toBe(415);
    clock = indiaTime(11);
    await phone.close();
    await other.phone.close();
  });
});

describe('refusals and isolation', () => {
  it('answers bad input with a translated 400, and never shows another network, a sibling or the parent their campaigns', async () => {
    const { customer, phone } = await f.phone();
    const bad = await t.post('/api/ads/campaigns', { title: '', text: 'x', audience: { kind: 'all' }, link: 'http://insecure.example' }, { token: ravi, headers: { cookie: 'i18next=hn' } });
    expect(bad.statusCode).toBe(400);
    const past = await t.post('/api/ads/campaigns', { title: 'Old', text: 'Old', audience: { kind: 'all' }, send_at: new Date(clock.getTime() - 3_600_000).toISOString() }, { token: ravi });
    expect(past.json().details?.[0]).toMatchObject({ field: 'send_at' });
    for (const body of [
      { title: '   ', text: 'Words', audience: { kind: 'all' } },
      { title: 'Words', text: ' \n ', audience: { kind: 'all' } },
      { title: 'Words', text: 'Words', audience: { kind: 'filter', status: 'constructor' } },
      { title: 'Words', text: 'Words', audience: { kind: 'all' }, send_at: '2026-12-31T23:59:60Z' },
    ]) {
      const res = await t.post('/api/ads/campaigns', body, { token: ravi });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Picking a customer of another network refuses the whole campaign.
    const theirs = await f.customer({ token: meena });
    expect((await t.post('/api/ads/campaigns', { title: 'X', text: 'Y', audience: { kind: 'picked', customer_ids: [customer.id, theirs.id] } }, { token: ravi })).statusCode).toBe(404);
    const made = await send({ audience: { kind: 'picked', customer_ids: [customer.id] }, send_at: new Date(clock.getTime() + 86_400_000).toISOString() });
    for (const token of [meena, arjun, sunita]) {
      expect((await t.get(`/api/ads/campaign?campaign_id=${made.id}`, { token })).statusCode).toBe(404);
      expect((await t.get(`/api/ads/campaign_targets?campaign_id=${made.id}`, { token })).statusCode).toBe(404);
      expect((await t.post('/api/ads/campaign_cancel', { campaign_id: made.id }, { token })).statusCode).toBe(404);
      const list = (await t.get('/api/ads/campaigns', { token })).json().data as { items: Campaign[] };
      expect(list.items.some((c) => c.id === made.id)).toBe(false);
    }
    // Sunita (a mini-retailer under Ravi) cannot target Ravi's own customers either.
    expect((await t.post('/api/ads/campaigns', { title: 'X', text: 'Y', audience: { kind: 'picked', customer_ids: [customer.id] } }, { token: sunita })).statusCode).toBe(404);
    const cancelled = await t.post('/api/ads/campaign_cancel', { campaign_id: made.id }, { token: ravi });
    expect(cancelled.json().data.status).toBe('cancelled');
    expect((await t.post('/api/ads/campaign_cancel', { campaign_id: made.id }, { token: ravi })).json().code).toBe('CAMPAIGN_FINISHED');
    await phone.close();
  });

  it('takes the opt-out from check-ins too, and an announcement shows until its reader dismisses it', async () => {
    const { device, phone } = await f.phone();
    expect((await f.checkIn(device, { offers_opt_out: true })).statusCode).toBe(200);
    expect((await t.db.query('SELECT offers_opt_out FROM devices WHERE id = $1', [device.device_id])).rows[0]).toEqual({ offers_opt_out: true });
    await phone.close();

    const orgId = (await t.db.query<{ org_id: number }>('SELECT org_id FROM users WHERE mobile = $1', [RAVI])).rows[0]!.org_id;
    const id = (await t.db.query<{ id: number }>("INSERT INTO announcements (org_id, title, text) VALUES ($1, 'New: loan products', 'Pick a lender''s product at enrolment.') RETURNING id", [orgId])).rows[0]!.id;
    expect((await t.get('/api/announcements/current', { token: ravi })).json().data).toMatchObject({ id, title: 'New: loan products' });
    expect((await t.get('/api/announcements/current', { token: meena })).json().data?.id).not.toBe(id);
    expect((await t.post('/api/announcements/dismiss', { announcement_id: id }, { token: meena })).statusCode).toBe(404);
    expect((await t.post('/api/announcements/dismiss', { announcement_id: id }, { token: ravi })).statusCode).toBe(200);
    expect((await t.get('/api/announcements/current', { token: ravi })).json().data?.id).not.toBe(id);
    expect((await t.get('/api/announcements/current', { token: sunita })).json().data).toMatchObject({ id });
  });
});

describe("the operator's commands", () => {
  it('set the per-phone caps, and announce to one organisation until turned off', async () => {
    const lines: string[] = [];
    const run = (...args: string[]) => runOperatorCommand(t.db, args, (line) => lines.push(line));
    const orgId = String((await t.db.query<{ org_id: number }>('SELECT org_id FROM users WHERE mobile = $1', [RAVI])).rows[0]!.org_id);
    expect(await run('offer-caps', orgId, 'per_day=2', 'per_week=5')).toBe(0);
    expect((await t.get('/api/ads/settings', { token: ravi })).json().data).toEqual({ per_day: 2, per_week: 5, send_hours: { from: 9, to: 21 } });
    expect(await run('offer-caps', orgId, 'per_day=11')).toBe(1);
    expect(await run('offer-caps', orgId, 'per_month=1')).toBe(1);
    expect(await run('offer-caps', orgId, 'per_day=1', 'per_week=3')).toBe(0);
    lines.length = 0;
    expect(await run('announce', orgId, 'Keys at a new price', 'From Monday a DPC key costs Rs 450.', 'https://kisht.example/prices')).toBe(0);
    const id = Number(/Announcement (\d+)/.exec(lines[0]!)![1]);
    expect((await t.get('/api/announcements/current', { token: sunita })).json().data).toMatchObject({ id, title: 'Keys at a new price', link: 'https://kisht.example/prices' });
    expect((await t.get('/api/announcements/current', { token: meena })).json().data?.id).not.toBe(id);
    expect(await run('announce', orgId, 'No text')).toBe(1);
    expect(await run('announce', orgId, 'Title', 'Text', 'http://insecure.example')).toBe(1);
    expect(await run('announce-off', String(id))).toBe(0);
    expect((await t.get('/api/announcements/current', { token: sunita })).json().data?.id).not.toBe(id);
  });
});

describe("notifications through the native shell's push", () => {
  it("push a member's new notifications to its registered token in its language, once, and drop a token FCM no longer knows", async () => {
    expect((await t.post('/api/notifications/push_token', { token: 'shell-ravi', language: 'hn' }, { token: ravi })).statusCode).toBe(200);
    expect((await t.post('/api/notifications/push_token', { token: 'has space' }, { token: ravi })).statusCode).toBe(400);
    const before = fcm.accepted.length;
    const asked = await t.post('/api/keys/transfer', { id: randomUUID(), kind: 'request', product_type: 0, quantity: 3 }, { token: sunita });
    expect(asked.statusCode, asked.body).toBe(200);
    const pushed = async () => {
      for (let i = 0; i < 100 && fcm.accepted.length === before; i++) await new Promise((r) => setTimeout(r, 20));
      return fcm.accepted.slice(before).map((m) => m.message);
    };
    const [message, ...more] = await pushed();
    expect(more).toEqual([]);
    expect(message).toMatchObject({ token: 'shell-ravi', data: { type: 'notification', kind: 'key_request' }, android: { notification: { channel_id: 'notifications' } } });
    expect(message!.notification!.title).toMatch(/[\u0900-\u097F]/); // Hindi
    // Pushing again for the same member sends nothing new.
    expect(await t.services.notificationPush.pushFor([(await t.db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [RAVI])).rows[0]!.id])).toBe(0);
    // Another member cannot remove Ravi's token; a token FCM calls unregistered is forgotten.
    await t.post('/api/notifications/push_token/remove', { token: 'shell-ravi' }, { token: sunita });
    expect((await t.db.query('SELECT count(*)::int AS n FROM user_push_tokens WHERE token = $1', ['shell-ravi'])).rows[0]).toEqual({ n: 1 });
    fcm.script('shell-ravi', { status: 404, errorCode: 'UNREGISTERED' });
    await t.post('/api/keys/transfer', { id: randomUUID(), kind: 'request', product_type: 0, quantity: 2 }, { token: sunita });
    for (let i = 0; i < 100; i++) {
      if ((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_push_tokens WHERE token = $1', ['shell-ravi'])).rows[0]!.n === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await t.db.query('SELECT count(*)::int AS n FROM user_push_tokens WHERE token = $1', ['shell-ravi'])).rows[0]).toEqual({ n: 0 });
  });
  it("push only while the session that registered the token lasts: signed out there, or another session's token, nothing goes", async () => {
    const raviId = (await t.db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [RAVI])).rows[0]!.id;
    const second = (await t.signIn(RAVI)).token;
    expect((await t.post('/api/notifications/push_token', { token: 'shell-ravi-kept', language: 'en' }, { token: ravi })).statusCode).toBe(200);
    expect((await t.post('/api/notifications/push_token', { token: 'shell-ravi-gone', language: 'en' }, { token: second })).statusCode).toBe(200);
    // The second phone is signed out (here by its own hand; a sign-out from another phone ends the session the same way).
    expect((await t.post('/api/auth/logout', {}, { token: second })).statusCode).toBe(200);
    const before = fcm.accepted.length;
    expect((await t.post('/api/keys/transfer', { id: randomUUID(), kind: 'request', product_type: 0, quantity: 1 }, { token: sunita })).statusCode).toBe(200);
    for (let i = 0; i < 100 && fcm.accepted.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    // Nothing more is on its way: pushing again sends nothing.
    expect(await t.services.notificationPush.pushFor([raviId])).toBe(0);
    const tokens = fcm.accepted.slice(before).map((m) => m.message.token);
    expect(tokens).toContain('shell-ravi-kept');
    expect(tokens).not.toContain('shell-ravi-gone');
  });
});
