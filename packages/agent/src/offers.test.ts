/**
 * The shop's offers (revision 6) on the phone, without the real server: a stub answers the check-in with sealed
 * commands and serves a picture, and the phone's events are read from its outbox (it never connects to a broker).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal, unseal } from '@kisht/protocol/signing';
import type { CheckInBody, CheckInReply, CommandMessage, CommandType, DeviceEvent, OfferPayload } from '@kisht/protocol/messages';
import { DeviceAgent, type CommandReport } from './agent.ts';
import { basicAuth } from './device-api.ts';
import { findOffer, OFFERS_KEPT, offerImagePath, offerRefusal, readOffer, withOffer } from './offers.ts';
import { startFleet } from './fleet.ts';
import { startScreen } from './screen/screen-server.ts';
import { initialState, type OfferNotification } from './state.ts';
import { MemoryStore } from './store.ts';

/** A 1x1 PNG, the stub's offer picture. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==', 'base64');
const DEVICE = { id: 'b1f4c2a0-0000-4000-8000-000000000001', password: 'device-password' };

/**
 * The server's side, as little of it as the phone needs: enrolment (always as DEVICE, with `secret`), check-ins
 * (with the commands queued) and the offer picture.
 */
let stub: { url: string; checkIns: CheckInBody[]; commands: string[]; secret: string; server: Server };

beforeAll(async () => {
  const checkIns: CheckInBody[] = [];
  const commands: string[] = [];
  const secret = randomBytes(32).toString('base64url');
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { text += chunk; });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/api/device/enrol') {
        return json(200, {
          success: true, message: 'OK', data: {
            device_id: DEVICE.id, offline_secret: secret, check_in_seconds: 900,
            mqtt: { url: 'mqtt://127.0.0.1:9', username: DEVICE.id, password: DEVICE.password, command_topic: `kisht/v1/d/${DEVICE.id}/cmd`, event_topic: `kisht/v1/d/${DEVICE.id}/evt` },
          },
        });
      }
      if (req.headers.authorization !== basicAuth(DEVICE.id, DEVICE.password)) return json(401, { success: false, code: 'UNAUTHORIZED' });
      if (req.method === 'POST' && url.pathname === '/api/device/check-in') {
        const body = JSON.parse(text) as CheckInBody;
        checkIns.push(body);
        const reply: CheckInReply = {
          desired: { locked: body.locked, lock_screen: null }, commands: commands.splice(0), next_check_in_seconds: 900, offline_lock_days: 0,
          org_name: 'Ravi Mobiles Finance', server_time: new Date().toISOString(), want_location: false,
        };
        return json(200, { success: true, message: 'OK', data: reply });
      }
      if (req.method === 'GET' && url.pathname === '/api/device/offer_image' && url.searchParams.get('campaign_id') === '7') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(PNG);
      }
      return json(404, { success: false, code: 'NOT_FOUND' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, checkIns, commands, secret, server };
});
afterAll(async () => {
  stub.server.closeAllConnections();
  await new Promise((resolve) => stub.server.close(resolve));
});

/** An enrolled phone of the stub's, never connected to a broker: commands come with its check-ins. */
function phone() {
  const secret = randomBytes(32).toString('base64url');
  const state = initialState({ imei1: '356938035643809' });
  state.status = 'enrolled';
  state.server = stub.url;
  state.credentials = {
    deviceId: DEVICE.id, username: DEVICE.id, password: DEVICE.password, mqttUrl: 'mqtt://127.0.0.1:9',
    commandTopic: `kisht/v1/d/${DEVICE.id}/cmd`, eventTopic: `kisht/v1/d/${DEVICE.id}/evt`, offlineSecret: secret,
  };
  const store = new MemoryStore();
  store.save(state);
  const agent = new DeviceAgent({ store, timer: false });
  const reports: CommandReport[] = [];
  agent.on('command', (r) => reports.push(r));
  let seq = 0;

  const sealed = (message: CommandMessage) => seal(secret, message);
  /** A command as the server writes it, with the next seq. */
  const command = (type: CommandType, payload: CommandMessage['payload']): CommandMessage => ({
    v: 1, id: randomUUID(), seq: ++seq, type, payload, issued_at: new Date().toISOString(), expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  /** Sends commands with the phone's next check-in, which it makes now. */
  const deliver = async (...messages: CommandMessage[]) => {
    stub.commands.push(...messages.map(sealed));
    expect(await agent.checkIn()).toBe(true);
  };
  /** The events the phone has sent so far (all still in its outbox), opened. */
  const events = () => agent.snapshot().outbox.map((text) => unseal<DeviceEvent>(secret, text)!);
  const acksOf = (id: string) => events().flatMap((e) => (e.kind === 'ack' && e.id === id ? [{ state: e.state, ...(e.result ? { result: e.result } : {}) }] : []));
  const lastCheckIn = () => stub.checkIns.at(-1)!;
  return { agent, reports, command, deliver, sealed, events, acksOf, lastCheckIn };
}

const diwali: OfferPayload = {
  campaign_id: 7, title: 'Diwali sale', text: 'Earbuds at half price this week.', link: 'https://shop.example/diwali', image: '/api/device/offer_image?campaign_id=7',
};

describe('an offer reaching the phone', () => {
  it('goes into the Offers channel and is acked delivered; opening it acks done with { opened: true }', async () => {
    const p = phone();
    const offer = p.command('offer', diwali);
    await p.deliver(offer);
    expect(p.acksOf(offer.id)).toEqual([{ state: 'delivered' }]);
    expect(p.reports.at(-1)).toMatchObject({ id: offer.id, outcome: 'delivered', type: 'offer' });
    expect(p.agent.snapshot().offers).toEqual([{
      commandId: offer.id, seq: offer.seq, campaignId: 7, title: 'Diwali sale', text: 'Earbuds at half price this week.', link: 'https://shop.example/diwali',
      image: '/api/device/offer_image?campaign_id=7', shownAt: expect.any(Number), openedAt: null,
    }]);
    // Not finished until opened: nothing for `recent` yet.
    expect(p.agent.snapshot().outcomes).toEqual([]);

    expect(p.agent.openOffer(7)).toMatchObject({ campaignId: 7, openedAt: expect.any(Number) });
    expect(p.acksOf(offer.id)).toEqual([{ state: 'delivered' }, { state: 'done', result: { opened: true } }]);
    expect(p.reports.at(-1)).toMatchObject({ id: offer.id, outcome: 'done', source: 'customer' });
    expect(p.agent.stats).toMatchObject({ offersShown: 1, offersOpened: 1, commandsDone: 1 });
    // Opening it again reports nothing more.
    p.agent.openOffer(offer.id);
    expect(p.acksOf(offer.id)).toHaveLength(2);

    // The outcome goes with the next check-in, so a `done` lost on the way still reaches the server.
    await p.deliver();
    expect(p.lastCheckIn().recent).toEqual([{ id: offer.id, seq: offer.seq, state: 'done', result: { opened: true } }]);
  });

  it('is shown once when it comes again; `delivered` is said again until it is opened, then `done`', async () => {
    const p = phone();
    const offer = p.command('offer', diwali);
    await p.deliver(offer);
    await p.deliver(offer);
    expect(p.agent.snapshot().offers).toHaveLength(1);
    expect(p.reports.map((r) => r.outcome)).toEqual(['delivered', 'repeated']);
    expect(p.acksOf(offer.id)).toEqual([{ state: 'delivered' }, { state: 'delivered' }]);

    p.agent.openOffer(7);
    await p.deliver(offer);
    expect(p.agent.snapshot().offers).toHaveLength(1);
    expect(p.acksOf(offer.id).at(-1)).toEqual({ state: 'done', result: { opened: true } });
    expect(p.agent.stats.offersShown).toBe(1);
  });

  it('keeps the newest first, one per campaign, and at most OFFERS_KEPT', async () => {
    const p = phone();
    const offers = Array.from({ length: OFFERS_KEPT + 2 }, (_, i) => p.command('offer', { ...diwali, campaign_id: 100 + i, title: `Offer ${i}` }));
    await p.deliver(...offers);
    const shown = p.agent.snapshot().offers!;
    expect(shown).toHaveLength(OFFERS_KEPT);
    expect(shown[0]!.campaignId).toBe(100 + OFFERS_KEPT + 1);
    expect(shown.at(-1)!.campaignId).toBe(102);

    const again = p.command('offer', { ...diwali, campaign_id: 105, title: 'Offer 5, again' });
    await p.deliver(again);
    const now = p.agent.snapshot().offers!;
    expect(now).toHaveLength(OFFERS_KEPT);
    expect(now[0]).toMatchObject({ campaignId: 105, title: 'Offer 5, again', commandId: again.id });
    expect(now.filter((o) => o.campaignId === 105)).toHaveLength(1);
  });

  it('fails as bad_payload when malformed, and shows nothing', async () => {
    const p = phone();
    const offer = p.command('offer', { ...diwali, link: 'http://shop.example/plain' });
    await p.deliver(offer);
    expect(p.acksOf(offer.id)).toEqual([{ state: 'delivered' }, { state: 'failed', result: { error: 'bad_payload' } }]);
    expect(p.agent.snapshot().offers ?? []).toEqual([]);
  });
});

describe('an offer the phone refuses', () => {
  it('while the lock screen is up: failed { error: locked }, nothing shown, and none opened until it is unlocked', async () => {
    const p = phone();
    const first = p.command('offer', diwali);
    await p.deliver(first);
    const lock = p.command('lock', { lock_screen: { amount_due: 150_000, upi: null, retailer_name: 'Ravi', retailer_mobile: '+919876543210', message: null, language: 'en' } });
    const offer = p.command('offer', { ...diwali, campaign_id: 8, title: 'Festive loan' });
    await p.deliver(lock, offer);
    expect(p.acksOf(offer.id)).toEqual([{ state: 'delivered' }, { state: 'failed', result: { error: 'locked' } }]);
    expect(p.agent.snapshot().offers!.map((o) => o.campaignId)).toEqual([7]);
    expect(p.agent.snapshot().outcomes.at(-1)).toEqual({ id: offer.id, seq: offer.seq, state: 'failed', result: { error: 'locked' } });
    // The offer shown before cannot be opened over the lock screen; once unlocked it can.
    expect(p.agent.openOffer(7)).toBeNull();
    expect(p.acksOf(first.id)).toEqual([{ state: 'delivered' }]);
    await p.deliver(p.command('unlock', {}));
    expect(p.agent.openOffer(7)).not.toBeNull();
    expect(p.acksOf(first.id).at(-1)).toEqual({ state: 'done', result: { opened: true } });
  });

  it('while lost mode is on, or the phone locked itself: locked', async () => {
    const p = phone();
    const lost = p.command('lost_mode', { on: true, message: 'Lost phone', phone: '+919876543210' });
    const offer = p.command('offer', diwali);
    await p.deliver(lost, offer);
    expect(p.acksOf(offer.id).at(-1)).toEqual({ state: 'failed', result: { error: 'locked' } });

    const state = initialState({ imei1: '356938035643809' });
    expect(offerRefusal(state)).toBeNull();
    state.selfLocked = true;
    state.screen.locked = true;
    expect(offerRefusal(state)).toBe('locked');
    state.offersOptOut = true;
    expect(offerRefusal(state)).toBe('locked');
  });

  it('once the customer opted out: failed { error: opted_out }; opting back in shows offers again', async () => {
    const p = phone();
    await p.deliver(p.command('offer', diwali));
    p.agent.setOffersOptOut(true);
    // Switching the channel off clears what it showed.
    expect(p.agent.snapshot()).toMatchObject({ offersOptOut: true, offers: [] });
    const offer = p.command('offer', { ...diwali, campaign_id: 8 });
    await p.deliver(offer);
    expect(p.acksOf(offer.id)).toEqual([{ state: 'delivered' }, { state: 'failed', result: { error: 'opted_out' } }]);
    expect(p.agent.snapshot().offers).toEqual([]);

    p.agent.setOffersOptOut(false);
    const later = p.command('offer', { ...diwali, campaign_id: 9 });
    await p.deliver(later);
    expect(p.agent.snapshot().offers!.map((o) => o.campaignId)).toEqual([9]);
  });
});

describe('the offers opt-out', () => {
  it('is sent as an offers_opt_out event on each change and goes with every check-in', async () => {
    const p = phone();
    await p.deliver();
    expect(p.lastCheckIn()).toMatchObject({ offers_opt_out: false, push_token: null });

    p.agent.setOffersOptOut(true);
    p.agent.setOffersOptOut(true);
    await p.deliver();
    expect(p.lastCheckIn().offers_opt_out).toBe(true);
    p.agent.setOffersOptOut(false);
    await p.deliver();
    expect(p.lastCheckIn().offers_opt_out).toBe(false);

    const switches = p.events().filter((e) => e.kind === 'offers_opt_out');
    expect(switches.map((e) => e.kind === 'offers_opt_out' && e.opted_out)).toEqual([true, false]);
    // Sealed events with the phone's increasing n, like every other.
    expect(switches[1]!.n).toBeGreaterThan(switches[0]!.n);
  });

  it('never silences EMI alerts: another channel', async () => {
    const p = phone();
    p.agent.setOffersOptOut(true);
    const alert = p.command('emi_alert', { message: 'Your EMI of Rs 1,500 is due on the 5th', amount_due: 150_000, due_date: '2026-12-05', upi: null, language: 'en' });
    await p.deliver(alert);
    expect(p.acksOf(alert.id).at(-1)).toEqual({ state: 'done', result: {} });
    expect(p.agent.snapshot().screen.emiAlert?.message).toBe('Your EMI of Rs 1,500 is due on the 5th');
  });

  it('check-ins carry the push token once the phone has one', async () => {
    const p = phone();
    p.agent.setPushToken('fcm-token-123');
    await p.deliver();
    expect(p.lastCheckIn().push_token).toBe('fcm-token-123');
  });
});

describe('the offers on the virtual phone page', () => {
  it('opens an offer, switches offers off and on, and passes the picture on with the phone credentials', async () => {
    const p = phone();
    const offer = p.command('offer', diwali);
    await p.deliver(offer);
    const screen = await startScreen(p.agent);
    try {
      const post = (path: string, body: unknown) => fetch(`${screen.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const view = async () => (await (await fetch(`${screen.url}/state`)).json()).offers;
      expect(await view()).toEqual({
        optedOut: false,
        items: [{ commandId: offer.id, campaignId: 7, title: 'Diwali sale', text: diwali.text, link: diwali.link, image: '/offer-image?campaign_id=7', opened: false }],
      });

      const picture = await fetch(`${screen.url}/offer-image?campaign_id=7`);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await picture.arrayBuffer())).toEqual(PNG);
      expect((await fetch(`${screen.url}/offer-image?campaign_id=99`)).status).toBe(404);

      expect((await post('/open-offer', { campaign_id: 7 })).status).toBe(200);
      expect((await view()).items[0].opened).toBe(true);
      expect(p.acksOf(offer.id).at(-1)).toEqual({ state: 'done', result: { opened: true } });
      expect((await post('/open-offer', { campaign_id: 99 })).status).toBe(404);

      expect(await (await post('/offers', { on: false })).json()).toEqual({ opted_out: true });
      expect(await view()).toEqual({ optedOut: true, items: [] });
      expect(await (await post('/offers', { on: true })).json()).toEqual({ opted_out: false });
      expect(p.events().filter((e) => e.kind === 'offers_opt_out')).toHaveLength(2);

      const html = await (await fetch(screen.url)).text();
      expect(html).toContain('<input type="checkbox" role="switch" id="offers-switch"');
      expect(html).toContain('<label for="offers-switch" data-t="offers.switch">');
    } finally {
      await screen.close();
    }
  });
});

describe('offers in fleet mode', () => {
  it('are shown by every phone, and opened at once with openOffers (no broker needed: the tick checks in)', async () => {
    const fleet = await startFleet({ server: stub.url, tokens: [{ token: 'enrolment-token', imei1: '356938035643809' }], tickMs: 50, openOffers: true });
    try {
      const offer = { v: 1, id: randomUUID(), seq: 1, type: 'offer', payload: diwali, issued_at: new Date().toISOString(), expires_at: new Date(Date.now() + 60_000).toISOString() };
      stub.commands.push(seal(stub.secret, offer));
      await expect.poll(() => fleet.summary()).toMatchObject({ phones: 1, offersShown: 1, offersOpened: 1 });
      const acks = fleet.agents[0]!.snapshot().outbox.map((text) => unseal<DeviceEvent>(stub.secret, text)!).filter((e) => e.kind === 'ack' && e.id === offer.id);
      expect(acks.map((e) => e.kind === 'ack' && e.state)).toEqual(['delivered', 'done']);
    } finally {
      await fleet.stop();
    }
  });
});

describe('reading an offer', () => {
  const server = 'https://kisht.example/app';
  const offer = (over: Partial<OfferNotification>): OfferNotification => ({
    commandId: randomUUID(), seq: 1, campaignId: 1, title: 'T', text: '', link: null, image: null, shownAt: 0, openedAt: null, ...over,
  });

  it('takes the picture only from the phone server, as a path', () => {
    expect(offerImagePath('/api/device/offer_image?campaign_id=3', server)).toBe('/api/device/offer_image?campaign_id=3');
    expect(offerImagePath(`${server}/api/device/offer_image?campaign_id=3`, server)).toBe('/api/device/offer_image?campaign_id=3');
    expect(offerImagePath('https://kisht.example.evil.test/app/x.png', server)).toBeNull();
    expect(offerImagePath('https://elsewhere.example/x.png', server)).toBeNull();
    expect(offerImagePath('//elsewhere.example/x.png', server)).toBeNull();
    expect(offerImagePath('/\\elsewhere.example/x.png', server)).toBeNull();
    expect(offerImagePath(null, server)).toBeNull();
  });

  it('refuses a payload without a campaign or a title, or with a link that is not https', () => {
    expect(readOffer({ ...diwali }, server)).toMatchObject({ campaignId: 7, title: 'Diwali sale', link: 'https://shop.example/diwali' });
    expect(readOffer({ ...diwali, link: null, image: null }, server)).toMatchObject({ link: null, image: null });
    expect(readOffer({ ...diwali, campaign_id: 0 }, server)).toBeNull();
    expect(readOffer({ ...diwali, title: ' ' }, server)).toBeNull();
    expect(readOffer({ ...diwali, link: 'javascript:alert(1)' }, server)).toBeNull();
    // A picture elsewhere is left out, not a reason to fail the offer.
    expect(readOffer({ ...diwali, image: 'https://elsewhere.example/x.png' }, server)).toMatchObject({ campaignId: 7, image: null });
  });

  it('finds an offer by campaign or by command id, and keeps one per campaign', () => {
    const a = offer({ campaignId: 1 });
    const b = offer({ campaignId: 2 });
    const list = withOffer(withOffer(undefined, a), b);
    expect(list.map((o) => o.campaignId)).toEqual([2, 1]);
    expect(findOffer(list, 1)).toBe(a);
    expect(findOffer(list, b.commandId)).toBe(b);
    expect(findOffer(list, 3)).toBeUndefined();
    expect(withOffer(list, offer({ campaignId: 1, title: 'again' })).map((o) => [o.campaignId, o.title])).toEqual([[1, 'again'], [2, 'T']]);
  });
});
