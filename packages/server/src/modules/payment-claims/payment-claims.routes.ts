/**
 * The lock screen's payment buttons and the retailer's side of them. The phone's (its own credentials): "I paid"
 * (POST /api/device/payment_claim) and "Pay now" (POST /api/device/pay_order). The retailer's (session + EMM
 * header): the claims list and the confirm-or-reject decision.
 */
import type { FastifyRequest } from 'fastify';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { ClaimDecisionBody, DeviceClaimBody, DevicePayOrder, PaymentClaimList, PaymentClaimQuery, PaymentClaimView } from '@kisht/contract/payments';
import type { App } from '../../shared/types.ts';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import { AppError } from '../../errors.ts';
import type { DeviceRow } from '../devices/devices.repository.ts';
import type { DevicesService } from '../devices/devices.service.ts';
import type { PaymentClaimsService } from './payment-claims.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 429: ErrorReply, 511: ErrorReply };
const security = [{ bearer: [] }];
const device = { public: true, skipEmm: true, callers: ['device'], scope: 'own' } as const;

export async function paymentClaimsRoutes(app: App, opts: { claims: PaymentClaimsService; authenticate: DevicesService['authenticate'] }) {
  const { claims } = opts;
  // The phone's own pair (HTTP Basic), as on check-in: a retired or wrong pair is 401, a retailer's token is no pair.
  const deviceAuth = async (request: FastifyRequest): Promise<DeviceRow> => {
    const found = await opts.authenticate(request.headers.authorization);
    if (!found) throw new AppError('DEVICE_CREDENTIALS_INVALID');
    return found;
  };

  app.post('/api/device/payment_claim', {
    config: device,
    schema: {
      tags: ['device side'], body: DeviceClaimBody, response: { 200: Ok(PaymentClaimView), ...errors },
      summary: '"I paid" from the lock screen: opens the customer\'s claim for the retailer, or updates the open one (the phone stays locked until the server unlocks it)',
    },
  }, async (request) => ok(request, await claims.claim(await deviceAuth(request), request.body), 'OK'));

  app.post('/api/device/pay_order', {
    config: device,
    schema: {
      tags: ['device side'], response: { 200: Ok(DevicePayOrder), ...errors },
      summary: '"Pay now" from the lock screen: a gateway order for what the customer owes now, as a UPI link (409 GATEWAY_NOT_CONFIGURED when the organisation\'s gateway is off)',
    },
  }, async (request) => ok(request, await claims.payOrder(await deviceAuth(request)), 'OK'));

  app.get('/api/payments/claims', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags: ['payments'], security, querystring: PaymentClaimQuery, response: { 200: Ok(PaymentClaimList), ...errors },
      summary: 'Customers\' "I paid" claims for payments to the shop\'s own UPI ID, newest first (a mini-retailer sees its own customers\')',
    },
  }, async (request) => ok(request, await claims.list(authOf(request), request.query)));

  app.post('/api/payments/claims/decide', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'payments.claim_decide' },
    schema: {
      tags: ['payments'], security, body: ClaimDecisionBody, response: { 200: Ok(PaymentClaimView), ...errors },
      summary: 'Confirm a claim (the payment is recorded in the ledger as UPI, amount as claimed or corrected) or reject it; a decided claim is 409 CLAIM_DECIDED',
    },
  }, async (request) => ok(request, await claims.decide(authOf(request), request.body), request.body.decision === 'confirm' ? 'PAYMENT_RECORDED' : 'CLAIM_REJECTED'));
}
