/** Android Management API routes: getOauthUrl (retailer), Google's callback (public, state-bound), the AMAPI QR. */
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { EmmCode, EmmCodeQuery } from '@kisht/contract/devices';
import { AmapiCallbackQuery, AmapiEnterprise, OauthUrl } from '@kisht/contract/amapi';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { AmapiService } from './amapi.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 429: ErrorReply, 502: ErrorReply, 511: ErrorReply };
const tags = ['amapi'];
const security = [{ bearer: [] }];

export async function amapiRoutes(app: App, opts: { amapi: AmapiService }) {
  const { amapi } = opts;
  app.get('/api/auth/getOauthUrl', {
    config: { callers: ['retailer'], scope: 'org', audit: 'amapi.signup' },
    schema: { tags, security, summary: "Google's sign-up URL to bind the organisation's Android Management enterprise", response: { 200: Ok(OauthUrl), ...errors } },
  }, async (request) => ok(request, await amapi.oauthUrl(authOf(request))));

  app.get('/api/amapi/callback', {
    // Google's page sends the browser here: no session and no EMM header; the single-use state is the proof.
    config: { public: true, skipEmm: true, callers: ['public'], scope: 'none' },
    schema: { tags, summary: 'Where Google returns after sign-up: binds the enterprise to the organisation that started it', querystring: AmapiCallbackQuery, response: { 200: Ok(AmapiEnterprise), ...errors } },
  }, async (request) => ok(request, await amapi.callback(request.query)));

  app.get('/api/amapi/qr', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'device.enrolment_qr' },
    schema: { tags, security, summary: 'The enrolment QR for an AMAPI customer (a one-time enrollment token of the enterprise)', querystring: EmmCodeQuery, response: { 200: Ok(EmmCode), ...errors } },
  }, async (request) => ok(request, await amapi.qr(authOf(request), request.query.customer_id)));
}
