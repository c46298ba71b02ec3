/** Family care (decision 024): the family-care screen's list, a phone's rules, its usage, and renewal. */
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { FamilyCare, FamilyCareListQuery, FamilyCarePage, FamilyCareQuery, FamilyRenewBody, FamilyRulesBody, FamilyUsage, FamilyUsageQuery } from '@kisht/contract/familycare';
import type { App } from '../../shared/types.ts';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { FamilyCareService } from './familycare.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply };
const tags = ['plans'];
const security = [{ bearer: [] }];

export async function familyCareRoutes(app: App, opts: { familycare: FamilyCareService }) {
  const { familycare } = opts;

  app.get('/api/customer/familycare/list', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags, security, querystring: FamilyCareListQuery, response: { 200: Ok(FamilyCarePage), ...errors },
      summary: "Phones on family care, newest first: cover, whether the phone confirmed the latest rules, today's screen time; search by name, mobile or IMEI (a mini-retailer sees its own)",
    },
  }, async (request) => ok(request, await familycare.list(authOf(request), request.query)));

  app.get('/api/customer/familycare', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags, security, querystring: FamilyCareQuery, response: { 200: Ok(FamilyCare), ...errors },
      summary: "A family-care phone's rules as last set, the version the phone confirmed, and its cover. 409 NOT_FAMILYCARE for another product",
    },
  }, async (request) => ok(request, await familycare.get(authOf(request), request.query.customer_id)));

  app.post('/api/customer/familycare', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'familycare.rules' },
    schema: {
      tags, security, body: FamilyRulesBody, response: { 200: Ok(FamilyCare), ...errors },
      summary: "Set a family-care phone's rules (screen time per weekday, downtime, allowed and blocked apps, a lock until a time); sent to the phone as the next version. 409 NOT_FAMILYCARE for another product",
    },
  }, async (request) => ok(request, await familycare.save(authOf(request), request.body), 'FAMILY_RULES_SAVED'));

  app.get('/api/customer/familycare/usage', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags, security, querystring: FamilyUsageQuery, response: { 200: Ok(FamilyUsage), ...errors },
      summary: "A family-care phone's screen time per India day and app, as the phone reported it, for the last days up to today",
    },
  }, async (request) => ok(request, await familycare.usage(authOf(request), request.query)));

  app.post('/api/customer/familycare/renew', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'familycare.renew' },
    schema: {
      tags, security, body: FamilyRenewBody, response: { 200: Ok(FamilyCare), ...errors },
      summary: "Renew a phone's family care for another term of its plan's validity; uses one key of the customer's product (409 NO_LICENSE_KEY when none is left)",
    },
  }, async (request) => ok(request, await familycare.renew(authOf(request), request.body.customer_id), 'FAMILY_RENEWED'));
}
