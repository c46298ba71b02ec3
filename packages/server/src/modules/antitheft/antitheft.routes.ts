/** Anti-theft settings of a phone on an anti-theft product (decision 022). */
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { Antitheft, AntitheftListQuery, AntitheftPage, AntitheftQuery, AntitheftRenewBody, AntitheftSettingsBody } from '@kisht/contract/antitheft';
import type { App } from '../../shared/types.ts';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { AntitheftService } from './antitheft.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply };
const tags = ['plans'];
const security = [{ bearer: [] }];

export async function antitheftRoutes(app: App, opts: { antitheft: AntitheftService }) {
  const { antitheft } = opts;

  app.get('/api/customer/antitheft/list', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags, security, querystring: AntitheftListQuery, response: { 200: Ok(AntitheftPage), ...errors },
      summary: 'Phones sold with anti-theft, newest first: cover, lost mode as the phone confirmed it, last check-in and SIM change; search by name, mobile or IMEI; state lost or ended (a mini-retailer sees its own)',
    },
  }, async (request) => ok(request, await antitheft.list(authOf(request), request.query)));

  app.get('/api/customer/antitheft', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags, security, querystring: AntitheftQuery, response: { 200: Ok(Antitheft), ...errors },
      summary: "An anti-theft phone's settings: whether a SIM change turns lost mode on, lost mode's message and number, and who SIM change alerts go to. 409 NOT_ANTITHEFT for a product without anti-theft",
    },
  }, async (request) => ok(request, await antitheft.get(authOf(request), request.query.customer_id)));

  app.post('/api/customer/antitheft', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'antitheft.settings' },
    schema: {
      tags, security, body: AntitheftSettingsBody, response: { 200: Ok(Antitheft), ...errors },
      summary: "Save the owner's anti-theft choice (needs the lost-mode access switch). 409 NOT_ANTITHEFT for a product without anti-theft",
    },
  }, async (request) => ok(request, await antitheft.save(authOf(request), request.body), 'ANTITHEFT_SAVED'));

  app.post('/api/customer/antitheft/renew', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'antitheft.renew' },
    schema: {
      tags, security, body: AntitheftRenewBody, response: { 200: Ok(Antitheft), ...errors },
      summary: "Renew a phone's anti-theft for another term of its plan's validity, from its last day in force or from today once ended; uses one key of the customer's product (409 NO_LICENSE_KEY when none is left)",
    },
  }, async (request) => ok(request, await antitheft.renew(authOf(request), request.body.customer_id), 'ANTITHEFT_RENEWED'));
}
