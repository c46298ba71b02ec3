/**
 * Add-on plan lists (get_plans_antihacking, get_plans_familycare), anti-hacking sales (add customer, list, one,
 * revoke) for the console, and the activation the security app on the buyer's phone calls with its code.
 */
import { Type } from 'typebox';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { Id } from '@kisht/contract/fields';
import {
  ActivateAntihackingBody, AddAntihackingBody, AntihackingActivation, AntihackingAdded, AntihackingListQuery, AntihackingPage, AntihackingSale,
  KindPlan, RevokeAntihackingBody,
} from '@kisht/contract/plans';
import type { App } from '../../shared/types.ts';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import type { AntihackingService } from './antihacking.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 410: ErrorReply, 429: ErrorReply, 511: ErrorReply };
const tags = ['plans'];
const security = [{ bearer: [] }];

export async function antihackingRoutes(app: App, opts: { antihacking: AntihackingService; catalogue: CatalogueRepository }) {
  const { antihacking, catalogue } = opts;

  app.get('/api/customer/get_plans_antihacking', {
    config: { callers: SIGNED_IN, scope: 'org' },
    schema: { tags, security, summary: 'Anti-hacking plans of every tier (app types 8, 12, 13): id, name, app_type, price, validity and terms', response: { 200: Ok(Type.Array(KindPlan)), ...errors } },
  }, async (request) => ok(request, await antihacking.plans(authOf(request).orgId)));

  app.get('/api/customer/get_plans_familycare', {
    config: { callers: SIGNED_IN, scope: 'org' },
    schema: { tags, security, summary: 'Family-care plans', response: { 200: Ok(Type.Array(KindPlan)), ...errors } },
  }, async (request) => ok(request, await catalogue.plansOfTypes(authOf(request).orgId, [PRODUCT_TYPE.FAMILYCARE])));

  app.post('/api/customer/add_customer_antihacking', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'antihacking.issue' },
    schema: {
      tags, security, body: AddAntihackingBody, response: { 200: Ok(AntihackingAdded), ...errors },
      summary: 'Sell an anti-hacking plan to a mobile number: one key of the plan\'s type is used (409 NO_LICENSE_KEY when none is left); data[0].antihacking_code is the activation code',
    },
  }, async (request) => ok(request, await antihacking.add(authOf(request), request.body), 'ANTIHACKING_ADDED'));

  app.get('/api/customer/antihacking', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, querystring: AntihackingListQuery, response: { 200: Ok(AntihackingPage), ...errors }, summary: 'Anti-hacking plans sold, newest first, with their code state (a mini-retailer sees its own)' },
  }, async (request) => ok(request, await antihacking.list(authOf(request), request.query)));

  app.get('/api/customer/antihacking/readById', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, querystring: Type.Object({ sale_id: Id }), response: { 200: Ok(AntihackingSale), ...errors }, summary: 'One anti-hacking sale' },
  }, async (request) => ok(request, await antihacking.get(authOf(request), request.query.sale_id)));

  app.post('/api/customer/antihacking/revoke', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'antihacking.revoke' },
    schema: {
      tags, security, body: RevokeAntihackingBody, response: { 200: Ok(AntihackingSale), ...errors },
      summary: 'Revoke a sale: its code stops working at once; the key comes back if the code was never activated. Revoking again changes nothing',
    },
  }, async (request) => ok(request, await antihacking.revoke(authOf(request), request.body.sale_id, request.body.reason), 'ANTIHACKING_REVOKED'));

  app.post('/api/antihacking/activate', {
    config: { public: true, skipEmm: true, callers: ['public'], scope: 'none', audit: 'antihacking.activate' },
    schema: {
      tags: ['device side'], body: ActivateAntihackingBody, response: { 200: Ok(AntihackingActivation), ...errors },
      summary: 'The security app activates its code once, for the mobile it was sold to; the same installation asking again (its periodic check) gets the activation back, or 410 once revoked or expired. 400 ACTIVATION_CODE_INVALID for a mistyped code, 404 ACTIVATION_CODE_UNKNOWN for a wrong code or mobile (10 an hour per address, then 429), 409 ACTIVATION_CODE_USED on another phone',
    },
  }, async (request) => ok(request, await antihacking.activate(request.body, request.ip), 'PROTECTION_ACTIVATED'));
}
