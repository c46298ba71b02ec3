/** /api/payments/*: gateway orders for a customer's dues and a retailer's keys, key quotes, the gateway's webhook. */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { CustomerOrderBody, HeldOrderBody, KeyOrderBody, KeyQuote, KeyQuoteBody, PaymentOrderList, PaymentOrderQuery, PaymentOrderView } from '@kisht/contract/payments';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { PaymentsService } from './payments.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply, 503: ErrorReply };
const tags = ['payments'];
const security = [{ bearer: [] }];
/** A webhook body is a few kilobytes; Razorpay's largest events stay far below this. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

export async function paymentsRoutes(app: App, opts: { payments: PaymentsService }) {
  const { payments } = opts;

  app.post('/api/payments/customer_order', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'payments.customer_order' },
    schema: { tags, security, summary: "A gateway order (UPI link) for what a customer owes now, or an amount; optionally sent to the customer's mobile", body: CustomerOrderBody, response: { 200: Ok(PaymentOrderView), ...errors } },
  }, async (request) => ok(request, await payments.customerOrderFor(authOf(request), request.body)));

  app.get('/api/payments/orders', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'Gateway orders of the network (a mini-retailer: its own customers and keys), newest first', querystring: PaymentOrderQuery, response: { 200: Ok(PaymentOrderList), ...errors } },
  }, async (request) => ok(request, await payments.orders(authOf(request), request.query)));

  app.post('/api/payments/orders/resolve', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'payments.held_resolved' },
    schema: {
      tags, security,
      summary: 'A held gateway order after review: record the amount received as a ledger payment (once), or mark it refunded',
      body: HeldOrderBody, response: { 200: Ok(PaymentOrderView), ...errors },
    },
  }, async (request) => ok(request, await payments.resolveHeld(authOf(request), request.body), request.body.action === 'record' ? 'PAYMENT_RECORDED' : 'OK'));

  app.post('/api/payments/validate', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, security, summary: "The price of keys from the caller's parent (or the operator at the top of the network) before buying them", body: KeyQuoteBody, response: { 200: Ok(KeyQuote), ...errors } },
  }, async (request) => ok(request, await payments.quote(authOf(request), request.body)));

  app.post('/api/payments', {
    config: { callers: SIGNED_IN, scope: 'own', audit: 'payments.key_order' },
    schema: { tags, security, summary: 'A gateway order for keys at the quoted price; the keys are credited once the payment is confirmed', body: KeyOrderBody, response: { 200: Ok(PaymentOrderView), ...errors } },
  }, async (request) => ok(request, await payments.keyOrder(authOf(request), request.body)));

  await app.register(webhookRoutes, { payments });
}

/**
 * The gateway's webhook, in a plugin of its own so that its body parser (the raw bytes, which the signature is
 * over; JSON parsed and serialised again would not match) reaches no other route.
 */
async function webhookRoutes(app: App, opts: { payments: PaymentsService }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post('/api/payments/webhook/razorpay', {
    config: { public: true, skipEmm: true, callers: ['public'], scope: 'none' },
    schema: {
      tags,
      security: [],
      summary: "Razorpay's events (X-Razorpay-Signature over the raw body); stored once by X-Razorpay-Event-Id and applied by a worker",
      response: { 200: Ok(Type.Object({ stored: Type.Boolean({ description: 'false: this event id was stored before' }) })), 401: ErrorReply, 413: ErrorReply },
    },
  }, async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signature = request.headers['x-razorpay-signature'];
    const result = await opts.payments.receiveWebhook('razorpay', raw, Array.isArray(signature) ? signature[0] : signature, request.headers);
    // Answered now; the worker applies it after this reply (a node that dies first leaves it in the table).
    if (result.stored) setImmediate(() => opts.payments.kick());
    return ok(request, result);
  });
}
