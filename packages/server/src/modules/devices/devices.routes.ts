/** generate_emm_code and get_customers_qrCode for the retailer; /api/device/enrol for the phone. */
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '../../contract/envelope.ts';
import { Type } from 'typebox';
import { CommandBody, DeviceCommand, DeviceEnrolBody, DeviceEnrolled, EmmCode, EmmCodeQuery } from '../../contract/devices.ts';
import { ok } from '../../shared/reply.ts';
import { authOf } from '../../plugins/route-config.ts';
import type { DevicesService } from './devices.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply };

export async function devicesRoutes(app: App, opts: { devices: DevicesService }) {
  const { devices } = opts;
  for (const url of ['/api/customer/generate_emm_code', '/api/customer/get_customers_qrCode']) {
    app.get(url, {
      schema: { tags: ['devices'], security: [{ bearer: [] }], summary: 'The EMM provisioning QR for a customer\'s phone (a fresh single-use token)', querystring: EmmCodeQuery, response: { 200: Ok(EmmCode), ...errors } },
    }, async (request) => ok(request, await devices.emmCode(authOf(request), request.query.customer_id)));
  }

  for (const type of ['lock', 'unlock'] as const) {
    app.post(`/api/device/${type}`, {
      schema: { tags: ['devices'], security: [{ bearer: [] }], summary: `${type === 'lock' ? 'Lock' : 'Unlock'} the customer's phone (the status changes when the phone confirms)`, body: CommandBody, response: { 200: Ok(DeviceCommand), ...errors } },
    }, async (request) => ok(request, await devices.command(authOf(request), request.body.customer_id, type)));
  }

  app.get('/api/device/commands', {
    schema: { tags: ['devices'], security: [{ bearer: [] }], summary: "The customer's device commands and their state, newest first", querystring: EmmCodeQuery, response: { 200: Ok(Type.Array(DeviceCommand)), ...errors } },
  }, async (request) => ok(request, await devices.commands(authOf(request), request.query.customer_id)));

  app.post('/api/device/enrol', {
    config: { public: true, skipEmm: true },
    schema: { tags: ['devices'], summary: 'The phone enrols with the token from the QR and its IMEIs, and receives its own credentials', body: DeviceEnrolBody, response: { 200: Ok(DeviceEnrolled), ...errors } },
  }, async (request) => ok(request, await devices.enrol(request.body), 'OK'));
}
