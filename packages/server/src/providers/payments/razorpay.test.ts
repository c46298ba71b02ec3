import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRazorpayGateway, ORDER_NOTE } from './razorpay.ts';

const gateway = createRazorpayGateway({ baseUrl: 'http://127.0.0.1:9', keyId: 'rzp_test_x', keySecret: 'key-secret', webhookSecret: 'webhook-secret' });
const signed = (body: string, secret = 'webhook-secret') => createHmac('sha256', secret).update(body).digest('hex');

describe('the Razorpay adapter', () => {
  it('accepts only the hex HMAC-SHA256 of the exact bytes, keyed with the webhook secret', () => {
    const body = Buffer.from('{"event":"payment.captured","payload":{}}');
    expect(gateway.verify(body, signed(body.toString()))).toBe(true);
    expect(gateway.verify(body, signed(body.toString()).toUpperCase())).toBe(true);
    expect(gateway.verify(body, signed(body.toString(), 'key-secret'))).toBe(false);
    expect(gateway.verify(Buffer.from(`${body.toString()} `), signed(body.toString()))).toBe(false);
    expect(gateway.verify(body, undefined)).toBe(false);
    expect(gateway.verify(body, signed(body.toString()).slice(0, 63))).toBe(false);
    expect(gateway.verify(body, 'g'.repeat(64))).toBe(false);
  });

  it('reads the payment and every reference an event carries', () => {
    const event = gateway.parseEvent(JSON.stringify({
      event: 'payment_link.paid',
      payload: {
        payment: { entity: { id: 'pay_1', amount: 150000, currency: 'INR', status: 'captured', order_id: 'order_9', notes: [] } },
        payment_link: { entity: { id: 'plink_7', reference_id: 'po_ref', notes: { [ORDER_NOTE]: 'po_note' } } },
      },
    }));
    expect(event).toEqual({
      type: 'payment_link.paid', status: 'captured', payment: { id: 'pay_1', amountPaise: 150000, currency: 'INR' },
      refs: { reference: 'po_note', gatewayRef: 'plink_7', gatewayOrderId: 'order_9' },
    });
    expect(gateway.parseEvent('{"event":"payment.authorized","payload":{"payment":{"entity":{"id":"pay_2","amount":1.5,"currency":"INR"}}}}')).toMatchObject({ status: 'authorized', payment: null });
    expect(gateway.parseEvent('{"event":"payment_link.expired","payload":{}}')).toMatchObject({ status: null, payment: null });
    expect(gateway.parseEvent('not json')).toBeNull();
    expect(gateway.parseEvent('{"payload":{}}')).toBeNull();
  });

  it("takes the event id from X-Razorpay-Event-Id, or from the body's hash", () => {
    const body = Buffer.from('{}');
    expect(gateway.eventId(body, { 'x-razorpay-event-id': 'JTmY0aGs1Yd6y9' })).toBe('JTmY0aGs1Yd6y9');
    expect(gateway.eventId(body, {})).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(gateway.eventId(body, { 'x-razorpay-event-id': 'bad id with spaces' })).toBe(gateway.eventId(body, {}));
  });
});
