/**
 * Apple routes. The retailer's (session + EMM header, tags ['apple']): enrolment QR, DEP sync and link,
 * Activation Lock, the one-mode app and the details screen. The phone's (outside /api, as Apple's MDM
 * protocol wants them): the enrolment profile, check-in and connect, with plist bodies.
 */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { AppleCustomerBody, AppleCustomerQuery, AppleDepDevice, AppleDetails, AppleQr, AppleSyncResult, AppleUpdateBody } from '@kisht/contract/apple';
import { DeviceCommand } from '@kisht/contract/devices';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { DevicesService } from '../../modules/devices/devices.service.ts';
import type { AppleService, MdmReply } from './apple.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 429: ErrorReply, 502: ErrorReply, 511: ErrorReply };
const tags = ['apple'];
const security = [{ bearer: [] }];

export async function appleRoutes(app: App, opts: { apple: AppleService; devices: DevicesService }) {
  const { apple, devices } = opts;

  app.get('/api/apple/qr', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'device.enrolment_qr' },
    schema: { tags, security, summary: 'The MDM enrolment QR for an Apple customer (the profile URL with a fresh single-use token)', querystring: AppleCustomerQuery, response: { 200: Ok(AppleQr), ...errors } },
  }, async (request) => ok(request, await apple.qr(authOf(request), request.query.customer_id)));

  app.get('/api/apple/details', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "The Apple details screen: the phone, its Apple Business Manager record, last MDM contact, commands waiting", querystring: AppleCustomerQuery, response: { 200: Ok(AppleDetails), ...errors } },
  }, async (request) => ok(request, await apple.details(authOf(request), request.query.customer_id)));

  app.post('/api/apple/sync', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'apple.sync' },
    schema: { tags, security, summary: "Sync with Apple Business Manager, then list this network's Apple devices", response: { 200: Ok(AppleSyncResult), ...errors } },
  }, async (request) => ok(request, await apple.sync(authOf(request))));

  app.get('/api/apple/devices', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "This network's Apple Business Manager devices as last synced", response: { 200: Ok(Type.Array(AppleDepDevice)), ...errors } },
  }, async (request) => ok(request, await apple.depDevices(authOf(request))));

  app.post('/api/apple/update', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'apple.link' },
    schema: { tags, security, summary: 'Link a synced Apple device to a customer (or release the link with customer_id null)', body: AppleUpdateBody, response: { 200: Ok(AppleDepDevice), ...errors } },
  }, async (request) => ok(request, await apple.update(authOf(request), request.body), 'CUSTOMER_UPDATED'));

  app.post('/api/apple/disable_activation_lock', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'apple.disable_activation_lock' },
    schema: { tags, security, summary: "Lift Activation Lock with the bypass code the phone gave at enrolment", body: AppleCustomerBody, response: { 200: Ok(AppleDetails), ...errors } },
  }, async (request) => ok(request, await apple.disableActivationLock(authOf(request), request.body.customer_id)));

  app.post('/api/apple/install_onemodapp', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'device.install_apple_onemodapp' },
    schema: { tags, security, summary: 'Install the one-mode app on the Apple phone (the plan rule applies)', body: AppleCustomerBody, response: { 200: Ok(DeviceCommand), ...errors } },
  }, async (request) => {
    const caller = authOf(request);
    apple.checkOneModeApp();
    const command = await devices.once(caller, request.body.customer_id, 'install_apple_onemodapp');
    return ok(request, command, 'COMMAND_SENT');
  });

  await app.register(mdmRoutes, { apple });
}

/** Apple's check-in and connect protocol: plist in, plist (or nothing) out; errors are bare statuses. */
async function mdmRoutes(app: App, opts: { apple: AppleService }) {
  const { apple } = opts;
  // Devices send application/x-apple-aspen-mdm(-checkin); anything else is read as text too. Scoped to this plugin.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
  const MdmQuery = Type.Object({ device: Type.Optional(Type.String({ maxLength: 64 })), key: Type.Optional(Type.String({ maxLength: 128 })) });
  const send = (reply: { status: (n: number) => { header: (k: string, v: string) => { send: (b: string) => unknown } } }, answer: MdmReply) =>
    reply.status(answer.status).header('content-type', answer.body ? 'application/xml; charset=UTF-8' : 'text/plain').send(answer.body);

  app.get('/mdm/enroll', {
    config: { callers: ['device'], scope: 'own' },
    schema: { tags: ['apple device side'], summary: 'The MDM enrolment profile (.mobileconfig) for a QR token, once', querystring: Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) }) },
  }, async (request, reply) => {
    const profile = await apple.enrolmentProfile(request.query.token);
    return reply.header('content-type', 'application/x-apple-aspen-config').header('content-disposition', 'attachment; filename="enrol.mobileconfig"').send(profile);
  });
  app.put('/mdm/checkin', {
    config: { callers: ['device'], scope: 'own' },
    schema: { tags: ['apple device side'], summary: 'MDM check-in: Authenticate, TokenUpdate, CheckOut (plist)', querystring: MdmQuery },
  }, async (request, reply) => send(reply as never, await apple.checkIn(request.query, typeof request.body === 'string' ? request.body : '')));
  app.put('/mdm/connect', {
    config: { callers: ['device'], scope: 'own' },
    schema: { tags: ['apple device side'], summary: "MDM connect: the phone's status for the last command in, the next command out (plist or empty)", querystring: MdmQuery },
  }, async (request, reply) => send(reply as never, await apple.connect(request.query, typeof request.body === 'string' ? request.body : '')));
}
