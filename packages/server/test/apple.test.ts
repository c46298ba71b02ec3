/**
 * The Apple provider end to end: our real API and MDM endpoints, with local fakes of Apple's documented
 * HTTP APIs (APNs over HTTP/2, the DEP device service and the Activation Lock escrow service).
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, RAVI, MEENA, SUNITA, type TestApp } from './harness.ts';
import { deviceFixtures } from './device-fixtures.ts';
import { asDict, parsePlist, PlistData, toPlist, type PlistValue } from '../src/providers/apple/plist.ts';

const TOPIC = 'com.apple.mgmt.External.2b5c1f0e-test';
const PUBLIC = 'https://mdm.example.test';

interface Push { path: string; topic: string; pushType: string; body: { mdm?: string } }
interface DepCall { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }

async function fakeApns() {
  const pushes: Push[] = [];
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = http2.createServer();
  server.on('session', (s) => sessions.add(s));
  server.on('stream', (stream, headers) => {
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => (body += c));
    stream.on('end', () => {
      pushes.push({ path: String(headers[':path']), topic: String(headers['apns-topic']), pushType: String(headers['apns-push-type']), body: JSON.parse(body) as Push['body'] });
      stream.respond({ ':status': 200, 'apns-id': 'a1b2c3d4-0000-0000-0000-000000000000' });
      stream.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pushes,
    close: () => new Promise<void>((resolve) => {
      for (const s of sessions) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/** DEP (session, server/devices, devices/sync) and the escrow service, as Apple documents them. */
async function fakeApple() {
  const calls: DepCall[] = [];
  const device = (serial: string, extra: Record<string, string> = {}) => ({
    serial_number: serial, model: 'iPhone 15', description: 'IPHONE 15 BLACK 128GB', color: 'BLACK', os: 'iOS', device_family: 'iPhone',
    profile_status: 'empty', device_assigned_date: '2025-01-10T10:00:00Z', device_assigned_by: 'reseller@example.com', ...extra,
  });
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://fake');
      calls.push({ method: req.method!, path: url.pathname + url.search, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/session' && req.method === 'GET') {
        const auth = req.headers.authorization ?? '';
        if (!auth.startsWith('OAuth ') || !auth.includes('oauth_consumer_key="CK_test"') || !auth.includes('oauth_token="AT_test"') || !auth.includes('oauth_signature=')) return json(401, { error: 'unauthorized' });
        return json(200, { auth_session_token: 'session-1' });
      }
      if (url.pathname.startsWith('/deviceservicesworkers/escrowKeyUnlock')) {
        res.writeHead(200);
        return res.end();
      }
      if (req.headers['x-adm-auth-session'] !== 'session-1') return json(401, 'UNAUTHORIZED');
      const request = JSON.parse(body || '{}') as { cursor?: string; limit?: number };
      if (url.pathname === '/server/devices') {
        if (!request.cursor) return json(200, { devices: [device('DEPSERIAL001'), device('DEPSERIAL002')], cursor: 'cursor-1', more_to_follow: true, fetched_until: '2025-02-01T00:00:00Z' });
        if (request.cursor === 'cursor-1') return json(200, { devices: [device('DEPSERIAL003')], cursor: 'cursor-2', more_to_follow: false, fetched_until: '2025-02-01T00:00:00Z' });
      }
      if (url.pathname === '/devices/sync' && request.cursor === 'cursor-2') {
        return json(200, { devices: [device('DEPSERIAL003', { op_type: 'modified', profile_status: 'assigned', op_date: '2025-02-02T00:00:00Z' }), device('DEPSERIAL004', { op_type: 'added' })], cursor: 'cursor-3', more_to_follow: false });
      }
      if (url.pathname === '/devices/sync' && request.cursor) return json(200, { devices: [], cursor: request.cursor, more_to_follow: false });
      return json(400, { error: 'unexpected' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let t: TestApp;
let ravi: string;
let meena: string;
let apns: Awaited<ReturnType<typeof fakeApns>>;
let apple: Awaited<ReturnType<typeof fakeApple>>;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  apns = await fakeApns();
  apple = await fakeApple();
  t = await startTestApp({
    limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 },
    env: {
      PUBLIC_URL: PUBLIC, DEVICE_SWEEP_SECONDS: '0',
      APPLE_MDM_TOPIC: TOPIC, APPLE_APNS_URL: apns.url, APPLE_DEP_URL: apple.url, APPLE_ESCROW_URL: apple.url,
      APPLE_DEP_CONSUMER_KEY: 'CK_test', APPLE_DEP_CONSUMER_SECRET: 'CS_test', APPLE_DEP_ACCESS_TOKEN: 'AT_test', APPLE_DEP_ACCESS_SECRET: 'AS_test',
      APPLE_ONEMODE_ITUNES_ID: '1234567890',
    },
  });
  ravi = (await t.signIn(RAVI)).token;
  meena = (await t.signIn(MEENA)).token;
  // Enough Apple licence keys for every customer these tests enrol.
  await t.db.query(`UPDATE license_balances SET balance = balance + 50 WHERE product_type = 2`);
  f = deviceFixtures(t, () => ravi);
});
afterAll(async () => {
  await t.stop();
  await apns.close();
  await apple.close();
});

const appleCustomer = (token = ravi) => f.customer({ token, provisioning_type: 3, product_type: 2 });

/** An iPhone that enrols through the QR's profile and speaks the MDM protocol to our endpoints. */
async function enrolIphone(customerId: number) {
  const qr = await t.get(`/api/apple/qr?customer_id=${customerId}`, { token: ravi });
  expect(qr.statusCode, qr.body).toBe(200);
  const enrolUrl = new URL(qr.json().data.enrol_url as string);
  expect(enrolUrl.origin + enrolUrl.pathname).toBe(`${PUBLIC}/mdm/enroll`);
  const profileRes = await t.app.inject({ method: 'GET', url: enrolUrl.pathname + enrolUrl.search });
  expect(profileRes.statusCode, profileRes.body).toBe(200);
  expect(profileRes.headers['content-type']).toContain('application/x-apple-aspen-config');
  const profile = asDict(parsePlist(profileRes.body))!;
  const mdm = asDict((profile.PayloadContent as PlistValue[])[0])!;
  expect(mdm).toMatchObject({ PayloadType: 'com.apple.mdm', Topic: TOPIC, IdentityCertificateUUID: expect.any(String) });
  // The token works once.
  expect((await t.app.inject({ method: 'GET', url: enrolUrl.pathname + enrolUrl.search })).statusCode).toBe(400);

  const udid = `00008110-${randomBytes(8).toString('hex').toUpperCase()}`;
  const token = randomBytes(32);
  const magic = `magic-${randomBytes(6).toString('hex')}`;
  const pathOf = (u: PlistValue | undefined) => {
    const url = new URL(u as string);
    expect(url.origin).toBe(PUBLIC);
    return url.pathname + url.search;
  };
  const checkInPath = pathOf(mdm.CheckInURL);
  const connectPath = pathOf(mdm.ServerURL);
  const put = async (path: string, message: Record<string, PlistValue>, contentType: string) => {
    const res = await t.app.inject({ method: 'PUT', url: path, headers: { 'content-type': contentType }, payload: toPlist(message) });
    return { status: res.statusCode, plist: res.body ? asDict(parsePlist(res.body)) : null };
  };
  const checkIn = (message: Record<string, PlistValue>, path = checkInPath) => put(path, { UDID: udid, ...message }, 'application/x-apple-aspen-mdm-checkin');
  const connect = (message: Record<string, PlistValue>, path = connectPath) => put(path, { UDID: udid, ...message }, 'application/x-apple-aspen-mdm');

  expect((await checkIn({ MessageType: 'Authenticate', SerialNumber: 'F2LZK0TESTAB', Topic: TOPIC, ProductName: 'iPhone15,4', OSVersion: '17.5' })).status).toBe(200);
  expect((await checkIn({ MessageType: 'TokenUpdate', Token: new PlistData(token), PushMagic: magic, Topic: TOPIC, UnlockToken: new PlistData(Buffer.from('unlock-token')) })).status).toBe(200);
  return { udid, tokenHex: token.toString('hex'), magic, checkIn, connect, checkInPath, connectPath };
}

type Iphone = Awaited<ReturnType<typeof enrolIphone>>;

/** The phone answers everything the provider asks of it on its own (the bypass code) until a retailer command comes. */
async function nextRetailerCommand(phone: Iphone): Promise<Record<string, PlistValue> | null> {
  let answer = await phone.connect({ Status: 'Idle' });
  for (let i = 0; i < 5 && answer.plist; i++) {
    const command = asDict(answer.plist.Command)!;
    if (command.RequestType !== 'ActivationLockBypassCode') return answer.plist;
    answer = await phone.connect({ Status: 'Acknowledged', CommandUUID: answer.plist.CommandUUID as string, ActivationLockBypassCode: 'J0KT-G1HL-CRR4-KXN7-M2D4-7HZ6' });
  }
  return answer.plist;
}

const command = async (customerId: number, id: string) => (await f.commands(customerId)).find((c) => c.id === id)!;

describe('Apple MDM', () => {
  it('enrols through the QR profile: check-in creates the Apple device and the customer becomes Install', async () => {
    const c = await appleCustomer();
    const phone = await enrolIphone(c.id);
    const details = (await t.get(`/api/apple/details?customer_id=${c.id}`, { token: ravi })).json().data;
    expect(details.device).toMatchObject({ udid: phone.udid, serial_number: 'F2LZK0TESTAB', push_ready: true });
    expect((await f.profile(c.id)).install_status).toBe(1);
    // Right after enrolment the provider asks for the Activation Lock bypass code, and wakes the phone for it.
    expect(details.queued).toEqual([expect.objectContaining({ type: 'ActivationLockBypassCode', state: 'queued' })]);
    expect(apns.pushes.at(-1)).toMatchObject({ path: `/3/device/${phone.tokenHex}`, topic: TOPIC, pushType: 'mdm', body: { mdm: phone.magic } });
  });

  it('fetch location and lock: APNs push, the command over connect, Acknowledged moves our command to done', async () => {
    const c = await appleCustomer();
    const phone = await enrolIphone(c.id);
    const pushesBefore = apns.pushes.length;

    const locate = await t.post('/api/device/fetch_location', { customer_id: c.id }, { token: ravi });
    expect(locate.statusCode, locate.body).toBe(200);
    expect(locate.json().data).toMatchObject({ type: 'fetch_location', state: 'sent' });
    // The push carries only the PushMagic, to the phone's token, under our topic.
    expect(apns.pushes.length).toBe(pushesBefore + 1);
    expect(apns.pushes.at(-1)).toEqual({ path: `/3/device/${phone.tokenHex}`, topic: TOPIC, pushType: 'mdm', body: { mdm: phone.magic } });

    const first = await phone.connect({ Status: 'Idle' });
    expect(first.plist).toMatchObject({ CommandUUID: locate.json().data.id, Command: { RequestType: 'DeviceLocation' } });
    expect((await command(c.id, locate.json().data.id)).state).toBe('delivered');
    const after = await phone.connect({ Status: 'Acknowledged', CommandUUID: locate.json().data.id, Latitude: 26.9124, Longitude: 75.7873, HorizontalAccuracy: 15, Timestamp: new Date('2025-03-01T10:00:00Z') });
    expect(after.status).toBe(200);
    const located = await command(c.id, locate.json().data.id);
    expect(located).toMatchObject({ state: 'done', result: { location: { latitude: 26.9124, longitude: 75.7873, accuracy: 15, at: '2025-03-01T10:00:00.000Z' } } });
    // The next answer was the provider's own question; the phone answers it and then has nothing more.
    expect(asDict(after.plist!.Command)!.RequestType).toBe('ActivationLockBypassCode');
    const idle = await phone.connect({ Status: 'Acknowledged', CommandUUID: after.plist!.CommandUUID as string, ActivationLockBypassCode: 'J0KT-G1HL-CRR4-KXN7-M2D4-7HZ6' });
    expect(idle).toEqual({ status: 200, plist: null });

    const lock = await t.post('/api/device/lock', { customer_id: c.id, message: 'Please pay your EMI' }, { token: ravi });
    expect(lock.statusCode, lock.body).toBe(200);
    const lockCommand = await nextRetailerCommand(phone);
    expect(lockCommand).toMatchObject({ CommandUUID: lock.json().data.id, Command: { RequestType: 'DeviceLock', Message: 'Please pay your EMI', PhoneNumber: RAVI } });
    expect((await f.profile(c.id)).lock_status).toBe(0);
    await phone.connect({ Status: 'Acknowledged', CommandUUID: lock.json().data.id });
    expect((await f.profile(c.id)).lock_status).toBe(1);
    const done = await command(c.id, lock.json().data.id);
    expect(done.state).toBe('done');

    // A replayed Acknowledged changes nothing (states only move forward).
    await phone.connect({ Status: 'Acknowledged', CommandUUID: lock.json().data.id });
    expect(await command(c.id, lock.json().data.id)).toEqual(done);

    // Error fails the command; the customer stays locked.
    const unlock = await t.post('/api/device/unlock', { customer_id: c.id }, { token: ravi });
    const clear = await nextRetailerCommand(phone);
    expect(clear).toMatchObject({ CommandUUID: unlock.json().data.id, Command: { RequestType: 'ClearPasscode' } });
    expect((asDict(clear!.Command)!.UnlockToken as PlistData).bytes.toString()).toBe('unlock-token');
    await phone.connect({ Status: 'Error', CommandUUID: unlock.json().data.id, ErrorChain: [{ ErrorCode: 12081, ErrorDomain: 'MCMDMErrorDomain', LocalizedDescription: 'The passcode could not be cleared.' }] });
    expect(await command(c.id, unlock.json().data.id)).toMatchObject({ state: 'failed', result: { error: 'mdm_error', message: 'The passcode could not be cleared.' } });
    expect((await f.profile(c.id)).lock_status).toBe(1);

    // SIM info (offered while locked): DeviceInformation with ServiceSubscriptions.
    const sims = await t.post('/api/device/sim_info', { customer_id: c.id }, { token: ravi });
    const info = await nextRetailerCommand(phone);
    expect(info).toMatchObject({ CommandUUID: sims.json().data.id, Command: { RequestType: 'DeviceInformation', Queries: expect.arrayContaining(['ServiceSubscriptions', 'IMEI', 'SerialNumber']) } });
    await phone.connect({
      Status: 'Acknowledged', CommandUUID: sims.json().data.id,
      QueryResponses: {
        IMEI: '35 123456 789012 3', SerialNumber: 'F2LZK0TESTAB',
        ServiceSubscriptions: [
          { Slot: 'CTSubscriptionSlotOne', ICCID: '8991 0000 0000 0000 001', PhoneNumber: '+919812300099', CurrentCarrierNetwork: 'Jio' },
          { Slot: 'CTSubscriptionSlotTwo', ICCID: '', PhoneNumber: '' },
        ],
      },
    });
    expect(await command(c.id, sims.json().data.id)).toMatchObject({
      state: 'done', result: { sims: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001', number: '+919812300099' }], imei: '351234567890123', serial_number: 'F2LZK0TESTAB' },
    });
  });

  it('NotNow leaves the command to be offered again; commands Apple cannot carry fail as unsupported_on_apple', async () => {
    const c = await appleCustomer();
    const phone = await enrolIphone(c.id);
    const reboot = await t.post('/api/device/reboot', { customer_id: c.id }, { token: ravi });
    const offered = await nextRetailerCommand(phone);
    expect(offered).toMatchObject({ CommandUUID: reboot.json().data.id, Command: { RequestType: 'RestartDevice' } });
    expect(await phone.connect({ Status: 'NotNow', CommandUUID: reboot.json().data.id })).toEqual({ status: 200, plist: null });
    expect((await phone.connect({ Status: 'Idle' })).plist).toMatchObject({ CommandUUID: reboot.json().data.id });
    await phone.connect({ Status: 'Acknowledged', CommandUUID: reboot.json().data.id });
    expect((await command(c.id, reboot.json().data.id)).state).toBe('done');

    // A dues-policy EMI alert has no MDM equivalent.
    const deviceRow = (await t.db.query('SELECT * FROM devices WHERE customer_id = $1 AND active', [c.id])).rows[0] as never;
    const alert = await t.services.devices.channel.issue({ device: deviceRow, type: 'emi_alert', payload: { message: 'due', amount_due: 100, due_date: null, upi: null, language: null }, createdBy: 1, origin: 'dues' });
    expect(await command(c.id, alert.id)).toMatchObject({ state: 'failed', result: { error: 'unsupported_on_apple' } });

    // Restrictions go as a profile with a restrictions payload; switching off removes that profile.
    const camera = await t.post('/api/device/camera_lock', { customer_id: c.id, on: true }, { token: ravi });
    const install = await nextRetailerCommand(phone);
    expect(install).toMatchObject({ CommandUUID: camera.json().data.id, Command: { RequestType: 'InstallProfile' } });
    const inner = asDict(parsePlist((asDict(install!.Command)!.Payload as PlistData).bytes.toString()))!;
    expect(asDict((inner.PayloadContent as PlistValue[])[0])).toMatchObject({ PayloadType: 'com.apple.applicationaccess', allowCamera: false });
    await phone.connect({ Status: 'Acknowledged', CommandUUID: camera.json().data.id });
    const cameraOff = await t.post('/api/device/camera_lock', { customer_id: c.id, on: false }, { token: ravi });
    expect(await nextRetailerCommand(phone)).toMatchObject({ CommandUUID: cameraOff.json().data.id, Command: { RequestType: 'RemoveProfile', Identifier: inner.PayloadIdentifier as string } });
  });

  it('installs the one-mode app through the devices service (plan rule applies)', async () => {
    const c = await appleCustomer();
    const phone = await enrolIphone(c.id);
    const res = await t.post('/api/apple/install_onemodapp', { customer_id: c.id }, { token: ravi });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ type: 'install_apple_onemodapp' });
    expect(await nextRetailerCommand(phone)).toMatchObject({ CommandUUID: res.json().data.id, Command: { RequestType: 'InstallApplication', iTunesStoreID: 1234567890 } });
    // A DPC customer is not offered the Apple one-mode app.
    const dpc = await f.customer();
    expect((await t.post('/api/apple/install_onemodapp', { customer_id: dpc.id }, { token: ravi })).json().code).toBe('DEVICE_NOT_ENROLLED');
  });

  it('refuses a wrong key or another UDID on the MDM endpoints, and CheckOut ends management', async () => {
    const c = await appleCustomer();
    const phone = await enrolIphone(c.id);
    const wrongKey = phone.connectPath.replace(/key=[^&]+/, `key=${'A'.repeat(43)}`);
    expect((await phone.connect({ Status: 'Idle' }, wrongKey)).status).toBe(401);
    const res = await t.app.inject({ method: 'PUT', url: phone.connectPath, headers: { 'content-type': 'application/x-apple-aspen-mdm' }, payload: toPlist({ UDID: 'SOMEONE-ELSE', Status: 'Idle' }) });
    expect(res.statusCode).toBe(401);
    expect((await phone.checkIn({ MessageType: 'CheckOut' })).status).toBe(200);
    expect((await f.profile(c.id)).install_status).toBe(4);
    expect((await phone.connect({ Status: 'Idle' })).status).toBe(401);
  });
});

describe('Apple Business Manager', () => {
  it('sync stores the devices (full fetch with cursor, then changes), update links one to a customer', async () => {
    const res = await t.post('/api/apple/sync', undefined, { token: ravi });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.fetched).toBe(3);
    // No device is this network's yet.
    expect(res.json().data.devices).toEqual([]);
    const stored = (await t.db.query<{ serial_number: string; model: string; profile_status: string }>('SELECT serial_number, model, profile_status FROM apple_devices ORDER BY serial_number')).rows;
    expect(stored.map((r) => r.serial_number)).toEqual(['DEPSERIAL001', 'DEPSERIAL002', 'DEPSERIAL003']);
    const session = apple.calls.find((c) => c.path === '/session')!;
    expect(session.method).toBe('GET');
    expect(session.headers.authorization).toMatch(/^OAuth .*oauth_signature_method="HMAC-SHA1"/);
    expect(apple.calls.filter((c) => c.path === '/server/devices').map((c) => JSON.parse(c.body))).toEqual([{ limit: 200 }, { limit: 200, cursor: 'cursor-1' }]);

    const c = await appleCustomer();
    // An unclaimed device goes only to the customer with its serial number.
    expect((await t.post('/api/apple/update', { serial_number: 'DEPSERIAL003', customer_id: c.id }, { token: ravi })).statusCode).toBe(404);
    await t.db.query(`UPDATE customers SET serial_number = 'DEPSERIAL003' WHERE id = $1`, [c.id]);
    const linked = await t.post('/api/apple/update', { serial_number: 'DEPSERIAL003', customer_id: c.id }, { token: ravi });
    expect(linked.statusCode, linked.body).toBe(200);
    // A mini-retailer of the same network cannot move or unlink a device of a customer that is not theirs.
    const sunita = (await t.signIn(SUNITA)).token;
    expect((await t.post('/api/apple/update', { serial_number: 'DEPSERIAL003', customer_id: null }, { token: sunita })).statusCode).toBe(404);
    expect((await t.db.query<{ customer_id: number }>(`SELECT customer_id FROM apple_devices WHERE serial_number = 'DEPSERIAL003'`)).rows[0]!.customer_id).toBe(c.id);
    expect(linked.json().data).toMatchObject({ serial_number: 'DEPSERIAL003', customer_id: c.id });

    const again = await t.post('/api/apple/sync', undefined, { token: ravi });
    expect(apple.calls.filter((c) => c.path === '/devices/sync').map((c) => JSON.parse(c.body))).toEqual([{ cursor: 'cursor-2', limit: 200 }]);
    expect(again.json().data).toMatchObject({ fetched: 2, devices: [expect.objectContaining({ serial_number: 'DEPSERIAL003', op_type: 'modified', profile_status: 'assigned', customer_id: c.id })] });
    const details = (await t.get(`/api/apple/details?customer_id=${c.id}`, { token: ravi })).json().data;
    expect(details).toMatchObject({ profile_status: 'assigned', dep: { serial_number: 'DEPSERIAL003' } });

    // Another network sees none of it and cannot take the linked device.
    expect((await t.post('/api/apple/sync', undefined, { token: meena })).json().data).toEqual({ fetched: 0, devices: [] });
    expect((await t.get('/api/apple/devices', { token: meena })).json().data).toEqual([]);
    const theirs = await appleCustomer(meena);
    expect((await t.post('/api/apple/update', { serial_number: 'DEPSERIAL003', customer_id: theirs.id }, { token: meena })).statusCode).toBe(404);
  });

  it('disable activation lock sends the bypass code to the escrow service', async () => {
    const c = await appleCustomer();
    const phone = await enrolIphone(c.id);
    // Before the phone gave its bypass code there is nothing to send.
    expect((await t.post('/api/apple/disable_activation_lock', { customer_id: c.id }, { token: ravi })).json().code).toBe('ACTIVATION_LOCK_NO_CODE');
    expect(await nextRetailerCommand(phone)).toBeNull();
    const res = await t.post('/api/apple/disable_activation_lock', { customer_id: c.id }, { token: ravi });
    expect(res.statusCode, res.body).toBe(200);
    const call = apple.calls.filter((x) => x.path.startsWith('/deviceservicesworkers/escrowKeyUnlock')).at(-1)!;
    expect(call.method).toBe('POST');
    const query = new URL(call.path, 'http://x').searchParams;
    expect(query.get('serial')).toBe('F2LZK0TESTAB');
    expect(query.get('productType')).toBe('iPhone15,4');
    expect(query.get('imei')).toBe(c.imei1);
    expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(call.body);
    expect(form.get('escrowKey')).toBe('J0KT-G1HL-CRR4-KXN7-M2D4-7HZ6');
    expect(form.get('orgName')).toBeTruthy();
  });
});

describe('another network', () => {
  it("gets 404 for this network's customers on every Apple endpoint", async () => {
    const c = await appleCustomer();
    await enrolIphone(c.id);
    expect((await t.get(`/api/apple/qr?customer_id=${c.id}`, { token: meena })).statusCode).toBe(404);
    expect((await t.get(`/api/apple/details?customer_id=${c.id}`, { token: meena })).statusCode).toBe(404);
    expect((await t.post('/api/apple/disable_activation_lock', { customer_id: c.id }, { token: meena })).statusCode).toBe(404);
    expect((await t.post('/api/apple/install_onemodapp', { customer_id: c.id }, { token: meena })).statusCode).toBe(404);
    expect((await t.post('/api/apple/update', { serial_number: 'DEPSERIAL001', customer_id: c.id }, { token: meena })).statusCode).toBe(404);
  });

  it('Android Management is off here: getOauthUrl answers FEATURE_OFF', async () => {
    expect((await t.get('/api/auth/getOauthUrl', { token: ravi })).json().code).toBe('FEATURE_OFF');
  });
});
