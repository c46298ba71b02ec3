/**
 * Device routes. The retailer's (session + EMM header): enrolment QR and links, every device action, offline
 * codes, schedules, multiple lock/unlock, SIM changes, the device panel. The phone's (its own credentials):
 * enrol, check-in, offline command log.
 */
import type { FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { SIM_TRACKING_COMMANDS } from '@kisht/domain/device-actions';
import { ONE_SHOT_ACTIONS, TOGGLE_ACTIONS, type OfflineLogEntry } from '@kisht/protocol/messages';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import {
  Batch, BatchBody, BatchQuery, BypassCodeBody, CheckInBody, CheckInReply, CommandBody, DeepLink, DeviceCommand, DeviceEnrolBody, DeviceEnrolled,
  DevicePanel, EmiAlertBody, EmmCode, EmmCodeQuery, LockBody, LostModeBody, OfflineCode, OfflineCodeBody, OfflineLogBody, OfflineLogItem, PinChangeBody,
  Schedule, ScheduleBody, ScheduleCancelBody, SimChangeList, SimChangeQuery, SimTrackingBody, ToggleBody, UninstallBody, WallpaperBody,
} from '@kisht/contract/devices';
import { ok } from '../../shared/reply.ts';
import type { SuccessMessage } from '../../shared/messages.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import { AppError, errorMessage } from '../../errors.ts';
import type { DevicesService } from './devices.service.ts';
import type { DeviceRow } from './devices.repository.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 429: ErrorReply, 511: ErrorReply };
const tags = ['devices'];
const security = [{ bearer: [] }];

/** A busy node's answer to a check-in beyond its limit: come back within this many seconds (at least 5), spread. */
const CHECK_IN_COME_BACK_SECONDS = 30;

export async function devicesRoutes(app: App, opts: { devices: DevicesService; checkInsAtOnce?: number }) {
  const { devices } = opts;
  const checkInsAtOnce = opts.checkInsAtOnce ?? 0;
  let checkInsNow = 0;
  // One shape for the retailer's POST actions: schema-checked body, the caller's auth, a success message.
  const retailerPost = <B extends TSchema, R extends TSchema>(url: string, summary: string, body: B, reply: R, handler: (request: FastifyRequest<{ Body: Static<B> }>) => Promise<Static<R>>, message: SuccessMessage = 'COMMAND_SENT') =>
    app.route({
      method: 'POST', url, config: { callers: SIGNED_IN, scope: 'account', audit: `device.${url.slice('/api/device/'.length).replaceAll('/', '.')}` }, schema: { tags, security, summary, body, response: { 200: Ok(reply), ...errors } },
      handler: async (request: FastifyRequest) => ok(request, await handler(request as FastifyRequest<{ Body: Static<B> }>), message) as never,
    } as never);

  for (const url of ['/api/customer/generate_emm_code', '/api/customer/get_customers_qrCode']) {
    app.get(url, {
      config: { callers: SIGNED_IN, scope: 'account', audit: 'device.enrolment_qr' },
      schema: { tags, security, summary: "The EMM provisioning QR for a customer's phone (a fresh single-use token)", querystring: EmmCodeQuery, response: { 200: Ok(EmmCode), ...errors } },
    }, async (request) => ok(request, await devices.emmCode(authOf(request), request.query.customer_id)));
  }
  app.get('/api/customer/get_deep_link', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'device.enrolment_link' },
    schema: { tags, security, summary: 'The LINKFL enrolment deep link (a fresh single-use token)', querystring: EmmCodeQuery, response: { 200: Ok(DeepLink), ...errors } },
  }, async (request) => ok(request, await devices.deepLink(authOf(request), request.query.customer_id)));

  // Device actions: the status changes when the phone confirms.
  retailerPost('/api/device/lock', 'Lock the phone (it shows the amount due, the UPI QR and the retailer)', LockBody, DeviceCommand, (r) => devices.lock(authOf(r), r.body.customer_id, r.body.message ?? null));
  retailerPost('/api/device/unlock', 'Unlock the phone', CommandBody, DeviceCommand, (r) => devices.unlock(authOf(r), r.body.customer_id));
  for (const action of TOGGLE_ACTIONS.filter((a) => a !== 'lost_mode' && a !== 'antitheft_lost_mode')) {
    retailerPost(`/api/device/${action}`, `Switch ${action.replaceAll('_', ' ')} on or off`, ToggleBody, DeviceCommand, (r) => devices.toggle(authOf(r), r.body.customer_id, action, r.body.on));
  }
  for (const action of ['lost_mode', 'antitheft_lost_mode'] as const) {
    retailerPost(`/api/device/${action}`, `${action === 'lost_mode' ? 'Lost mode' : 'Anti-theft lost mode'} on or off, with a message and a number to call`, LostModeBody, DeviceCommand, (r) => devices.lostMode(authOf(r), r.body.customer_id, action, r.body));
  }
  retailerPost('/api/device/sim_tracking', `SIM tracking: ${Object.values(SIM_TRACKING_COMMANDS).flatMap((c) => Object.values(c)).join(', ')}`, SimTrackingBody, DeviceCommand, (r) => devices.simTracking(authOf(r), r.body.customer_id, r.body.command));
  retailerPost('/api/device/wallpaper', 'Wallpaper alert and policy: a text shown as an alert or as the wallpaper', WallpaperBody, DeviceCommand, (r) => devices.wallpaper(authOf(r), r.body.customer_id, r.body.text, r.body.policy));
  retailerPost('/api/device/emi_alert', 'EMI alert on the phone (the message and what is due now)', EmiAlertBody, DeviceCommand, (r) => devices.emiAlert(authOf(r), r.body.customer_id, r.body.message));
  for (const action of ONE_SHOT_ACTIONS) {
    retailerPost(`/api/device/${action}`, `${action.replaceAll('_', ' ')} (the result comes with the phone's report)`, CommandBody, DeviceCommand, (r) => devices.once(authOf(r), r.body.customer_id, action));
  }
  for (const action of ['uninstall', 'uninstall_antitheft'] as const) {
    retailerPost(`/api/device/${action}`, "Remove the agent from the phone: needs the customer's UNINSTALL OTP and the retailer's location", UninstallBody, DeviceCommand, (r) => devices.uninstall(authOf(r), r.body, action));
  }
  retailerPost('/api/device/pin_change', "Set the phone's screen PIN", PinChangeBody, DeviceCommand, (r) => devices.pinChange(authOf(r), r.body.customer_id, r.body.pin));
  retailerPost('/api/device/ring', 'Ring an anti-theft phone: an alarm at full volume for a minute, even on silent (409 ACTION_NOT_ALLOWED without anti-theft)', CommandBody, DeviceCommand, (r) => devices.ring(authOf(r), r.body.customer_id));
  retailerPost('/api/device/unclaim', 'Release the phone from management once the loan is closed', CommandBody, DeviceCommand, (r) => devices.unclaim(authOf(r), r.body.customer_id));

  app.get('/api/device/commands', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "The customer's device commands and their state, newest first", querystring: EmmCodeQuery, response: { 200: Ok(Type.Array(DeviceCommand)), ...errors } },
  }, async (request) => ok(request, await devices.commands(authOf(request), request.query.customer_id)));
  app.get('/api/device/details', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'The device panel: the phone, what it reported, the actions offered, recent commands', querystring: EmmCodeQuery, response: { 200: Ok(DevicePanel), ...errors } },
  }, async (request) => ok(request, await devices.panel(authOf(request), request.query.customer_id)));

  // Offline codes.
  app.post('/api/auth/offline_lock_unlock', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'device.offline_code' },
    schema: { tags, security, summary: 'An offline lock or unlock code the phone checks without a network (HOTP)', body: OfflineCodeBody, response: { 200: Ok(OfflineCode), ...errors } },
  }, async (request) => ok(request, await devices.offlineCode(authOf(request), request.body.customer_id, request.body.action)));
  app.get('/api/customer/ouc-code', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'device.ouc_code' },
    schema: { tags, security, summary: 'The time-based offline unlock code (TOTP, 10-minute steps)', querystring: EmmCodeQuery, response: { 200: Ok(OfflineCode), ...errors } },
  }, async (request) => ok(request, await devices.oucCode(authOf(request), request.query.customer_id)));
  app.post('/api/device/bypass_code', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'device.bypass_code' },
    schema: { tags, security, summary: "A device bypass code, after the customer's BYPASS_CODE OTP", body: BypassCodeBody, response: { 200: Ok(OfflineCode), ...errors } },
  }, async (request) => ok(request, await devices.bypassCode(authOf(request), request.body)));
  app.get('/api/device/offline_command_log', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'What the phone did without a network, as it reported', querystring: EmmCodeQuery, response: { 200: Ok(Type.Array(OfflineLogItem)), ...errors } },
  }, async (request) => ok(request, await devices.offlineLog(authOf(request), request.query.customer_id)));

  // SIM changes.
  app.get('/api/customer/customer_sim_change_details', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'SIM changes the phones reported, newest first (one customer or the whole network)', querystring: SimChangeQuery, response: { 200: Ok(SimChangeList), ...errors } },
  }, async (request) => ok(request, await devices.simChanges(authOf(request), request.query)));

  // Schedules.
  retailerPost('/api/device/schedule_lock_unlock', 'Lock or unlock at a set time (kept across restarts)', ScheduleBody, Schedule, (r) => devices.schedule(authOf(r), r.body), 'SCHEDULED');
  app.get('/api/device/schedules', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "The customer's scheduled locks and unlocks", querystring: EmmCodeQuery, response: { 200: Ok(Type.Array(Schedule)), ...errors } },
  }, async (request) => ok(request, await devices.schedules(authOf(request), request.query.customer_id)));
  retailerPost('/api/device/schedule_cancel', 'Cancel a scheduled lock or unlock', ScheduleCancelBody, Schedule, (r) => devices.cancelSchedule(authOf(r), r.body.schedule_id), 'SCHEDULE_CANCELLED');

  // Multiple lock/unlock.
  retailerPost('/api/device/multiple_lock_unlock', 'Lock or unlock many phones (chosen by hand or by filter); answers once the batch is stored, its customers not written yet counted as queued', BatchBody, Batch, (r) => devices.startBatch(authOf(r), r.body), 'BATCH_STARTED');
  app.get('/api/device/multiple_lock_unlock', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "A batch's progress and each phone's outcome", querystring: BatchQuery, response: { 200: Ok(Batch), ...errors } },
  }, async (request) => ok(request, await devices.batch(authOf(request), request.query.batch_id)));
  retailerPost('/api/device/multiple_lock_unlock/retry', "Send the batch's failed and expired commands again", BatchQuery, Batch, (r) => devices.retryBatch(authOf(r), r.body.batch_id), 'BATCH_STARTED');

  // The phone's side.
  app.post('/api/device/enrol', {
    config: { public: true, skipEmm: true, callers: ['device'], scope: 'own' },
    schema: { tags: ['device side'], summary: 'The phone enrols with the token from the QR and its IMEIs, and receives its own credentials', body: DeviceEnrolBody, response: { 200: Ok(DeviceEnrolled), ...errors } },
  }, async (request) => ok(request, await devices.enrol(request.body), 'OK'));

  const deviceAuth = async (request: FastifyRequest): Promise<DeviceRow> => {
    const device = await devices.authenticate(request.headers.authorization);
    if (!device) throw new AppError('DEVICE_CREDENTIALS_INVALID');
    return device;
  };
  app.post('/api/device/check-in', {
    config: { public: true, skipEmm: true, callers: ['device'], scope: 'own' },
    schema: { tags: ['device side'], summary: "The phone's check-in (its own credentials, HTTP Basic): state in, desired state and open commands out", body: CheckInBody, response: { 200: Ok(CheckInReply), ...errors, 503: ErrorReply } },
  }, async (request, reply) => {
    // Load shedding: thousands of phones reconnecting at once (after an outage, a deploy) would otherwise queue
    // here until their requests time out. Past the limit a phone is told at once when to come back, spread out.
    if (checkInsAtOnce > 0 && checkInsNow >= checkInsAtOnce) {
      const seconds = 5 + Math.floor(Math.random() * (CHECK_IN_COME_BACK_SECONDS - 4));
      return reply.code(503).header('retry-after', String(seconds))
        .send({ success: false, code: 'SERVICE_UNAVAILABLE', message: errorMessage('SERVICE_UNAVAILABLE'), retry_after_seconds: seconds }) as never;
    }
    checkInsNow++;
    try {
      return ok(request, await devices.checkIn(await deviceAuth(request), request.body as never), 'OK') as never;
    } finally {
      checkInsNow--;
    }
  });
  app.post('/api/device/offline_command_log', {
    config: { public: true, skipEmm: true, callers: ['device'], scope: 'own' },
    schema: { tags: ['device side'], summary: 'The phone uploads what it did offline (each entry is kept once)', body: OfflineLogBody, response: { 200: Ok(Type.Object({ taken: Type.Integer() })), ...errors } },
  }, async (request) => ok(request, { taken: await devices.uploadLog(await deviceAuth(request), (request.body.log ?? []) as OfflineLogEntry[]) }, 'OK'));
}
