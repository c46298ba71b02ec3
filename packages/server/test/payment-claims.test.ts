/**
 * "I paid" from the lock screen: the phone's claim (its own credentials only), the retailer's list and decision
 * within its scope, the ledger payment written once with the confirmation, the server events, and "Pay now".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARJUN, MEENA, SUNITA } from './harness.ts';
import { startDeviceApp } from './device-fixtures.ts';
import type { Enrolled } from './phone.ts';
import type { RequestAuth } from '../src/plugins/route-config.ts';
import { createPaymentClaimsService } from '../src/modules/payment-claims/payment-claims.service.ts';
import { createPaymentClaimsRepository } from '../src/modules/payment-claims/payment-claims.repository.ts';
import { createOrgRepository } from '../src/modules/config/org.repository.ts';

let ctx: Awaited<ReturnType<typeof startDeviceApp>>;
const tokens = { sunita: '', arjun: '', meena: '' };

beforeAll(async () => {
  ctx = await startDeviceApp();
  tokens.sunita = (await ctx.t.signIn(SUNITA)).token;
  tokens.arjun = (await ctx.t.signIn(ARJUN)).token;
  tokens.meena = (await ctx.t.signIn(MEENA)).token;
});
afterAll(() => ctx.t.stop());

/** A customer of the caller (Ravi by default) and the credentials its phone received at enrolment. */
async function enrolledPhone(token?: string): Promise<{ customerId: number; imei1: string; device: Enrolled }> {
  const { f } = ctx;
  const customer = await f.customer(token ? { token } : {});
  const res = await f.enrolDevice({ token: await f.qrToken(customer.id, token), imei1: customer.imei1 });
  expect(res.statusCode, res.body).toBe(200);
  return { customerId: customer.id, imei1: customer.imei1, device: res.json().data as Enrolled };
}

const press = (device: Enrolled, body: Record<string, unknown>, authorization = ctx.f.basic(device)) =>
  ctx.t.post('/api/device/payment_claim', body, { emm: false, headers: { authorization } });
const decide = (body: Record<string, unknown>, token = ctx.ravi) => ctx.t.post('/api/payments/claims/decide', body, { token });
const list = (query: string, token = ctx.ravi) => ctx.t.get(`/api/payments/claims${query}`, { token });
const ledger = async (customerId: number) =>
  (await ctx.t.db.query<{ amount_paise: number; method: string; reference: string | null }>("SELECT amount_paise, method, reference FROM payments WHERE customer_id = $1 AND kind = 'payment'", [customerId])).rows;

/** Ravi's server events as his console would get them (the hub's stream, in process). */
async function raviEvents() {
  const { t } = ctx;
  const user = (await t.db.query<{ id: number; account_id: number }>("SELECT id, account_id FROM users WHERE mobile = '+919876543210'")).rows[0]!;
  const caller = { userId: user.id, accountId: user.account_id, orgId: 23, userType: 'retailer', sessionId: 'events', userAccess: {}, lockAccess: {} } as unknown as RequestAuth;
  const received: Array<{ type: string; customer_ids?: number[] }> = [];
  const close = t.services.events.open(caller, {
    // One write may carry several events (the hub gathers changes for a moment).
    send: (text) => {
      for (const block of text.split('\n\n')) {
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data && !block.includes('event: ')) received.push(JSON.parse(data) as { type: string });
      }
    },
    end: () => undefined,
  });
  return { received, close };
}

describe('"I paid" from the lock screen', () => {
  it("opens one claim per customer: a press with nothing new answers it, one with news updates it (not within seconds)", async () => {
    const { customerId, device } = await enrolledPhone();
    const first = await press(device, { amount_paise: 100_000, reference: 'UTR4455667788' });
    expect(first.statusCode, first.body).toBe(200);
    const claim = first.json().data;
    expect(claim).toMatchObject({ customer_id: customerId, amount_paise: 100_000, reference: 'UTR4455667788', status: 'open', decided_at: null, receipt_no: null });
    expect(claim.customer_name).toMatch(/^Device Owner/);

    // The same press again (a double tap, or a replayed request): the open claim, unchanged.
    const again = await press(device, {});
    expect(again.json().data).toEqual(claim);
    // A new reference straight away is refused for a few seconds, so a phone tapping away cannot churn the shop's list.
    const soon = await press(device, { reference: 'UTR9988776655' });
    expect(soon.statusCode).toBe(429);
    expect(soon.json()).toMatchObject({ code: 'RATE_LIMITED', retry_after_seconds: expect.any(Number) });
    await ctx.t.db.query("UPDATE payment_claims SET updated_at = now() - interval '1 minute' WHERE id = $1", [claim.id]);
    const updated = await press(device, { reference: 'UTR9988776655' });
    expect(updated.json().data).toMatchObject({ id: claim.id, reference: 'UTR9988776655', amount_paise: 100_000 });
    expect((await ctx.t.db.query('SELECT presses FROM payment_claims WHERE customer_id = $1', [customerId])).rows).toEqual([{ presses: 2 }]);
    // The phone asks; only the server's unlock command unlocks it.
    expect((await ctx.f.profile(customerId)).lock_status).toBe(0);
    expect(await ctx.f.commands(customerId)).toEqual([]);
  });

  it('is confirmed into the ledger once, even with two confirmations at once; a decided claim is CLAIM_DECIDED', async () => {
    const { customerId, device } = await enrolledPhone();
    const events = await raviEvents();
    const claim = (await press(device, { amount_paise: 100_000, reference: 'UTR1234567890' })).json().data;
    await expect.poll(() => events.received).toContainEqual({ type: 'payment_claim', customer_ids: [customerId] });

    const open = (await list('?status=open')).json().data;
    expect(open).toMatchObject({ page: 1, has_more: false });
    expect(open.items).toContainEqual(claim);

    const answers = await Promise.all([decide({ id: claim.id, decision: 'confirm' }), decide({ id: claim.id, decision: 'confirm' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('CLAIM_DECIDED');
    const confirmed = answers.find((a) => a.statusCode === 200)!.json().data;
    expect(confirmed).toMatchObject({ id: claim.id, status: 'confirmed', amount_paise: 100_000, receipt_no: expect.stringMatching(/^RCP-/), decided_at: expect.any(String) });
    expect(await ledger(customerId)).toEqual([{ amount_paise: 100_000, method: 'upi', reference: 'UTR1234567890' }]);
    const emi = (await ctx.t.get(`/api/emi/customer_emi_details?customer_id=${customerId}`, { token: ctx.ravi })).json().data;
    expect(emi.totals.paid_paise).toBe(100_000);
    await expect.poll(() => events.received).toContainEqual({ type: 'emi', customer_ids: [customerId] });
    expect(events.received.filter((e) => e.type === 'payment_claim')).toHaveLength(2);
    events.close();

    for (const decision of ['confirm', 'reject']) {
      const late = await decide({ id: claim.id, decision });
      expect(late.statusCode).toBe(409);
      expect(late.json().code).toBe('CLAIM_DECIDED');
    }
    expect(await ledger(customerId)).toHaveLength(1);
    expect((await list(`?customer_id=${customerId}`)).json().data.items).toEqual([confirmed]);
  });

  it('rejects without touching the ledger, takes a corrected amount, and limits claims per day', async () => {
    const { customerId, device } = await enrolledPhone();
    const rejected = (await press(device, { reference: 'UTR0000000001' })).json().data;
    const res = await decide({ id: rejected.id, decision: 'reject' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'rejected', receipt_no: null });
    expect(await ledger(customerId)).toEqual([]);

    // The next press opens a new claim; with no amount from the customer the retailer must say what came in.
    const next = (await press(device, {})).json().data;
    expect(next.id).not.toBe(rejected.id);
    const noAmount = await decide({ id: next.id, decision: 'confirm' });
    expect(noAmount.statusCode).toBe(400);
    expect(noAmount.json().details[0]).toMatchObject({ field: 'amount_paise' });
    // More than the loan owes is refused and the claim stays open.
    expect((await decide({ id: next.id, decision: 'confirm', amount_paise: 900_000 })).json().code).toBe('PAYMENT_TOO_LARGE');
    expect((await decide({ id: next.id, decision: 'confirm', amount_paise: 50_000 })).json().data).toMatchObject({ status: 'confirmed', amount_paise: 50_000 });
    expect(await ledger(customerId)).toEqual([{ amount_paise: 50_000, method: 'upi', reference: null }]);

    // Five claims a day per customer, rejected ones too.
    for (let i = 0; i < 3; i++) {
      const claim = (await press(device, {})).json().data;
      expect((await decide({ id: claim.id, decision: 'reject' })).statusCode).toBe(200);
    }
    const sixth = await press(device, {});
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().retry_after_seconds).toBeGreaterThan(80_000);
  });

  it("shows a network's claims to that network only: a mini-retailer its own customers', never another network's", async () => {
    const ravis = await enrolledPhone();
    const sunitas = await enrolledPhone(tokens.sunita);
    const raviClaim = (await press(ravis.device, { amount_paise: 1000 })).json().data;
    const sunitaClaim = (await press(sunitas.device, { amount_paise: 2000 })).json().data;

    const ids = async (token: string) => ((await list('', token)).json().data.items as Array<{ id: number }>).map((c) => c.id);
    expect(await ids(ctx.ravi)).toEqual(expect.arrayContaining([raviClaim.id, sunitaClaim.id]));
    expect(await ids(tokens.sunita)).toEqual([sunitaClaim.id]);
    expect(await ids(tokens.arjun)).toEqual([]);
    expect(await ids(tokens.meena)).toEqual([]);

    for (const token of [tokens.sunita, tokens.arjun, tokens.meena]) {
      const res = await decide({ id: raviClaim.id, decision: 'confirm' }, token);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Device Owner');
      expect((await list(`?customer_id=${ravis.customerId}`, token)).statusCode).toBe(404);
    }
    for (const token of [tokens.arjun, tokens.meena]) expect((await decide({ id: sunitaClaim.id, decision: 'reject' }, token)).statusCode).toBe(404);
    expect((await ctx.t.db.query("SELECT count(*)::int AS n FROM payment_claims WHERE id = ANY($1) AND status = 'open'", [[raviClaim.id, sunitaClaim.id]])).rows[0]).toEqual({ n: 2 });
    // Her own customer's claim is hers to decide.
    expect((await decide({ id: sunitaClaim.id, decision: 'reject' }, tokens.sunita)).statusCode).toBe(200);
  });

  it('takes only the phone\'s own, current credentials', async () => {
    const { customerId, imei1, device } = await enrolledPhone();
    const refused = async (authorization: string | undefined) => {
      const res = await ctx.t.post('/api/device/payment_claim', {}, { emm: false, headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().code).toBe('DEVICE_CREDENTIALS_INVALID');
    };
    await refused(undefined);
    await refused(ctx.f.basic(device, 'a-guessed-password')); // forged
    await refused(`Bearer ${ctx.ravi}`); // a retailer's session is no phone
    await refused(`Basic ${Buffer.from(`${device.device_id}`).toString('base64')}`);
    // The phone enrolled again: the earlier pair, replayed, is retired.
    const again = await ctx.f.enrolDevice({ token: await ctx.f.qrToken(customerId), imei1 });
    expect(again.statusCode, again.body).toBe(200);
    await refused(ctx.f.basic(device));
    const pay = await ctx.t.post('/api/device/pay_order', {}, { emm: false, headers: { authorization: ctx.f.basic(device) } });
    expect(pay.statusCode).toBe(401);
    expect((await press(again.json().data as Enrolled, {})).statusCode).toBe(200);
    expect((await ctx.t.db.query('SELECT count(*)::int AS n FROM payment_claims WHERE customer_id = $1', [customerId])).rows[0]).toEqual({ n: 1 });
  });
});

describe('"Pay now" from the lock screen', () => {
  it("is offered only where the organisation's gateway is on, and answers with the gateway's order", async () => {
    const { customerId, device } = await enrolledPhone();
    const phone = (await ctx.t.services.devices.authenticate(ctx.f.basic(device)))!;
    expect(await ctx.t.services.devices.lockScreen(customerId)).toMatchObject({ pay_now: false });
    const off = await ctx.t.post('/api/device/pay_order', {}, { emm: false, headers: { authorization: ctx.f.basic(device) } });
    expect(off.statusCode).toBe(409);
    expect(off.json().code).toBe('GATEWAY_NOT_CONFIGURED');

    await ctx.t.db.query(`UPDATE organizations SET features = features || '{"payment_gateway": true}' WHERE id = $1`, [phone.org_id]);
    try {
      expect(await ctx.t.services.devices.lockScreen(customerId)).toMatchObject({ pay_now: true });
      // The route answers with whatever order the gateway module makes; here a stand-in for it.
      const asked: number[] = [];
      const claims = createPaymentClaimsService({
        db: ctx.t.db, claims: createPaymentClaimsRepository(ctx.t.db), customers: ctx.t.services.customers, orgs: createOrgRepository(ctx.t.db),
        emi: { payOldestFirstIn: () => Promise.reject(new Error('not used')) },
        payOrder: async (id) => {
          asked.push(id);
          return {
            id: 'ord_test_1', purpose: 'emi', status: 'pending', amount_paise: 100_000, currency: 'INR', customer_id: id, customer_name: null, product_type: null, quantity: null,
            upi_link: 'upi://pay?pa=kisht@razorpay&am=1000.00&cu=INR&tr=ord_test_1', short_url: null, receipt_no: null, held_reason: null, received_paise: null, received_currency: null, resolved_at: null, created_at: new Date().toISOString(), paid_at: null, expires_at: null,
          };
        },
      });
      expect(await claims.payOrder(phone)).toEqual({ order_id: 'ord_test_1', amount_paise: 100_000, upi_link: 'upi://pay?pa=kisht@razorpay&am=1000.00&cu=INR&tr=ord_test_1', short_url: null });
      expect(asked).toEqual([customerId]);
    } finally {
      await ctx.t.db.query(`UPDATE organizations SET features = features || '{"payment_gateway": false}' WHERE id = $1`, [phone.org_id]);
    }
  });
});
