/**
 * The lock screen's payment buttons on an agent enrolled with the real server: "Pay now" only where the server
 * says the organisation's gateway is on, "I paid" reaching the shop as a claim, and the phone unlocking only
 * by the server's command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_CHECK_IN_SECONDS, type DeviceAgent } from '../src/agent.ts';
import { startScreen, type ScreenServer } from '../src/screen/screen-server.ts';
import type { PaymentPanel, PhoneView } from '../src/screen/view.ts';
import { phoneStrings, translate } from '../src/screen/i18n.ts';
import { action, enrolledPhone, lockStatus, startLiveServer, type LiveServer } from './support.ts';

let live: LiveServer;
let agent: DeviceAgent;
let customerId: number;
let screen: ScreenServer;

beforeAll(async () => {
  live = await startLiveServer();
  const p = await enrolledPhone(live);
  agent = p.agent;
  customerId = p.customer.id;
  screen = await startScreen(agent);
});
afterAll(async () => {
  await screen.close();
  await agent.stop();
  await live.stop();
});

const state = async () => (await (await fetch(`${screen.url}/state`)).json()) as PhoneView;
const post = async (path: string, body: unknown = {}) =>
  (await (await fetch(`${screen.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as PaymentPanel;
const setGateway = (on: boolean) => live.t.db.query(`UPDATE organizations SET features = features || jsonb_build_object('payment_gateway', $2::boolean) WHERE id = (SELECT org_id FROM customers WHERE id = $1)`, [customerId, on]);
const claims = async () => (await live.t.get(`/api/payments/claims?customer_id=${customerId}`, { token: live.ravi })).json().data.items as Array<{ id: number; status: string; amount_paise: number | null; reference: string | null }>;

describe('the lock screen payment buttons', () => {
  it('offers "Pay now" only when the lock screen says the gateway is on', async () => {
    await action(live, '/api/device/lock', { customer_id: customerId });
    await expect.poll(async () => (await state()).locked).toBe(true);
    expect((await state()).lockScreen).toMatchObject({ payNow: false });
    expect(await post('/pay-now')).toMatchObject({ order: null, problem: 'unavailable' });

    await setGateway(true);
    try {
      // The lock screen comes again with the next check-in while the phone stays locked.
      expect(await agent.checkIn()).toBe(true);
      await expect.poll(async () => (await state()).lockScreen?.payNow).toBe(true);
      expect((await state()).locked).toBe(true);
    } finally {
      await setGateway(false);
    }
    await agent.checkIn();
    await expect.poll(async () => (await state()).lockScreen?.payNow).toBe(false);
  });

  it('sends "I paid" to the shop, which sees the claim; the phone stays locked until the server unlocks it', async () => {
    expect((await post('/i-paid', { reference: 'ab' })).problem).toBe('badReference');
    expect(await claims()).toEqual([]);

    const panel = await post('/i-paid', { reference: ' UTR 4455 6677 88 ' });
    expect(panel).toMatchObject({ claimSent: true, problem: null });
    expect((await state()).payment).toMatchObject({ claimSent: true, problem: null });
    const due = agent.snapshot().screen.lockScreen!.amount_due;
    const [claim] = await claims();
    expect(claim).toMatchObject({ status: 'open', reference: 'UTR4455667788', amount_paise: due > 0 ? due : null });

    // The claim alone unlocks nothing, on the phone or on the server.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await state()).locked).toBe(true);
    expect(await lockStatus(live, customerId)).toBe(1);

    // Confirmed, the payment is in the ledger; the retailer's own lock still waits for the retailer's unlock.
    const confirmed = await live.t.post('/api/payments/claims/decide', { id: claim!.id, decision: 'confirm', amount_paise: claim!.amount_paise ?? 1000 }, { token: live.ravi });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toMatchObject({ status: 'confirmed', receipt_no: expect.stringMatching(/^RCP-/) });
    expect((await state()).locked).toBe(true);
    await action(live, '/api/device/unlock', { customer_id: customerId });
    await expect.poll(async () => (await state()).locked).toBe(false);
    await expect.poll(() => lockStatus(live, customerId)).toBe(0);
    // A later lock starts with a fresh panel.
    expect((await state()).payment).toEqual({ order: null, claimSent: false, problem: null });
  });

  it('says so when the phone has no network', async () => {
    await action(live, '/api/device/lock', { customer_id: customerId });
    await expect.poll(async () => (await state()).locked).toBe(true);
    await post('/network', { on: false });
    try {
      expect(await post('/i-paid', {})).toMatchObject({ claimSent: false, problem: 'offline' });
      expect(await post('/pay-now')).toMatchObject({ order: null, problem: 'offline' });
    } finally {
      await post('/network', { on: true });
    }
    await expect.poll(async () => (await state()).connected).toBe(true);
  });

  it("tells the customer, in the customer's language, what the shop decided about the claim", async () => {
    await live.t.db.query("UPDATE customers SET language = 'hn' WHERE id = $1", [customerId]);
    try {
      if (!(await state()).locked) await action(live, '/api/device/lock', { customer_id: customerId });
      await expect.poll(async () => (await state()).locked).toBe(true);
      expect(await agent.checkIn()).toBe(true);
      await expect.poll(async () => (await state()).lng).toBe('hn');

      // Sent: the phone notes the open claim at once, without waiting for a check-in.
      expect(await post('/i-paid', { reference: 'UTR7766554433' })).toMatchObject({ claimSent: true, problem: null });
      expect((await state()).lockScreen?.claim).toMatchObject({ status: 'open', reason: null });
      const claim = (await claims()).find((c) => c.status === 'open')!;
      // While the shop decides, the phone asks every minute (not at its usual interval) for the decision.
      const nextIn = () => (agent as unknown as { nextCheckInAt: number }).nextCheckInAt - agent.now();
      expect(nextIn()).toBeLessThanOrEqual(CLAIM_CHECK_IN_SECONDS * 1000);
      expect(await agent.checkIn()).toBe(true);
      expect(nextIn()).toBeLessThanOrEqual(CLAIM_CHECK_IN_SECONDS * 1000);

      // Rejected with a reason: the next check-in brings it, and the screen can say so in Hindi.
      const rejected = await live.t.post('/api/payments/claims/decide', { id: claim.id, decision: 'reject', reason: 'Payment not received' }, { token: live.ravi });
      expect(rejected.statusCode, rejected.body).toBe(200);
      expect(await agent.checkIn()).toBe(true);
      await expect.poll(async () => (await state()).lockScreen?.claim).toMatchObject({ status: 'rejected', reason: 'Payment not received' });
      expect(nextIn()).toBeGreaterThan(CLAIM_CHECK_IN_SECONDS * 1000);
      const view = await state();
      const hindi = phoneStrings(view.lng);
      const told = translate(hindi, 'pay.claim.rejected', { reason: view.lockScreen!.claim!.reason!, shop: view.lockScreen!.retailerName, mobile: view.lockScreen!.retailerMobile });
      expect(told).toContain('Payment not received');
      expect(told).toContain(view.lockScreen!.retailerName);
      expect(told).not.toBe(translate(phoneStrings('en'), 'pay.claim.rejected', { reason: 'Payment not received', shop: view.lockScreen!.retailerName, mobile: view.lockScreen!.retailerMobile }));

      // Sent again and confirmed this time: the phone, still locked by the retailer, says the shop has the money.
      expect(await post('/i-paid', {})).toMatchObject({ claimSent: true, problem: null });
      expect((await state()).lockScreen?.claim).toMatchObject({ status: 'open' });
      const again = (await claims()).find((c) => c.status === 'open')!;
      const confirmed = await live.t.post('/api/payments/claims/decide', { id: again.id, decision: 'confirm', amount_paise: again.amount_paise ?? 1000 }, { token: live.ravi });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(await agent.checkIn()).toBe(true);
      await expect.poll(async () => (await state()).lockScreen?.claim).toMatchObject({ status: 'confirmed', reason: null, amount: expect.stringMatching(/\d/) });
      expect((await state()).locked).toBe(true);
    } finally {
      await live.t.db.query('UPDATE customers SET language = NULL WHERE id = $1', [customerId]);
    }
  });
});
