/** Every device action of the specification: its endpoint, the section 6 and plan rules, results, switches. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOGGLE_ACTIONS } from '@kisht/protocol/messages';
import { offeredActions } from '@kisht/domain/device-actions';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import { MEENA, RAVI, type TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
});
afterAll(() => t.stop());

const post = (action: string, body: Record<string, unknown>, token = ravi) => t.post(`/api/device/${action}`, body, { token });

describe('toggles', () => {
  it('carry on/off to the phone when section 6 offers them, and are refused otherwise', async () => {
    const { customer: c, phone } = await f.phone();
    const offered = offeredActions({ provisioningType: PROVISIONING_TYPE.DPC, locked: false }).main;
    for (const action of TOGGLE_ACTIONS.filter((a) => a !== 'lost_mode' && a !== 'antitheft_lost_mode' && a !== 'sim_lock_unlock')) {
      const res = await post(action, { customer_id: c.id, on: true });
      if (offered.includes(action)) {
        expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
        const command = await phone.next();
        expect(command).toMatchObject({ type: action, payload: { on: true } });
        await phone.ack(command, 'done');
      } else {
        expect(res.json().code, action).toBe('ACTION_NOT_ALLOWED');
      }
    }
    // What the phone confirmed shows in the device panel.
    await expect.poll(async () => (await t.get(`/api/device/details?customer_id=${c.id}`, { token: ravi })).json().data.device.reported.toggles?.camera_lock).toBe(true);
    await phone.close();
  });

  it('a second tap with the other setting is a new command; the same setting twice is one', async () => {
    const { customer: c, phone } = await f.phone();
    await phone.close();
    const on = (await post('camera_lock', { customer_id: c.id, on: true })).json().data;
    expect((await post('camera_lock', { customer_id: c.id, on: true })).json().data.id).toBe(on.id);
    const off = (await post('camera_lock', { customer_id: c.id, on: false })).json().data;
    expect(off.id).not.toBe(on.id);
    expect(off.seq).toBe(on.seq + 1);
    // Back to on: the newest is "off", so this is new too.
    expect((await post('camera_lock', { customer_id: c.id, on: true })).json().data.seq).toBe(on.seq + 2);
  });

  it('reads a switch missing from the stored row as its default, the same for the console and the check', async () => {
    const { customer: c, phone } = await f.phone();
    await phone.close();
    await t.db.query(`UPDATE users SET user_access = user_access - 'feature_access' WHERE mobile = $1`, [RAVI]);
    try {
      expect((await t.get('/api/user/user_access', { token: ravi })).json().data.feature_access).toBe('1');
      expect((await post('camera_lock', { customer_id: c.id, on: true })).statusCode).toBe(200);
    } finally {
      await t.db.query(`UPDATE users SET user_access = user_access || '{"feature_access": "1"}' WHERE mobile = $1`, [RAVI]);
    }
  });

  it('refuses bad bodies with the field named', async () => {
    const { customer: c, phone } = await f.phone();
    await phone.close();
    const res = await post('camera_lock', { customer_id: c.id, on: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect((await post('sim_tracking', { customer_id: c.id, command: 'SIMTRACKINGMAYBE' })).statusCode).toBe(400);
    expect((await post('wallpaper', { customer_id: c.id, text: '', policy: 'alert' })).statusCode).toBe(400);
    expect((await post('pin_change', { customer_id: c.id, pin: '12' })).statusCode).toBe(400);
  });
});

describe('one-shot and message actions', () => {
  it('bring back the location and SIM info the phone reports', async () => {
    const { customer: c, phone } = await f.phone();
    expect((await post('fetch_location', { customer_id: c.id })).statusCode).toBe(200);
    const fetch = await phone.next();
    const location = { latitude: 19.076, longitude: 72.8777, accuracy: 12, at: new Date().toISOString() };
    await phone.ack(fetch, 'done', { location });
    expect((await post('sim_info', { customer_id: c.id })).statusCode).toBe(200);
    const info = await phone.next();
    await phone.ack(info, 'done', { sims: [{ slot: 0, operator: 'Airtel', iccid: '8991000000000000009' }] });
    await expect.poll(async () => (await t.get(`/api/device/details?customer_id=${c.id}`, { token: ravi })).json().data.device.reported).toMatchObject({ location, sims: [{ operator: 'Airtel' }] });
    const history = await f.commands(c.id);
    expect(history.find((h) => h.type === 'fetch_location')).toMatchObject({ state: 'done', result: { location } });

    for (const [action, body, expected] of [
      ['sim_tracking', { command: 'SIMTRACKINGOFFLINEON' }, { type: 'sim_tracking_offline', payload: { command: 'SIMTRACKINGOFFLINEON' } }],
      ['sim_tracking', { command: 'SIMTRACKINGON' }, { type: 'sim_tracking_online', payload: { command: 'SIMTRACKINGON' } }],
      ['wallpaper', { text: 'Pay your EMI at Ravi Mobiles', policy: 'wallpaper' }, { type: 'wallpaper', payload: { text: 'Pay your EMI at Ravi Mobiles', policy: 'wallpaper' } }],
      ['emi_alert', { message: 'Please pay today' }, { type: 'emi_alert', payload: { message: 'Please pay today', amount_due: 0 } }],
      ['reboot', {}, { type: 'reboot' }],
      ['miui_permission', {}, { type: 'miui_permission' }],
      ['pin_change', { pin: '4821' }, { type: 'pin_change', payload: { pin: '4821' } }],
    ] as const) {
      const res = await post(action, { customer_id: c.id, ...body });
      expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
      const command = await phone.next();
      expect(command).toMatchObject(expected);
      await phone.ack(command, 'done');
    }
    // The console never sees the PIN itself.
    expect((await f.commands(c.id)).find((h) => h.type === 'pin_change')!.payload).toEqual({ pin: '****' });
    await phone.close();
  });

  it('follows the plan rule for anti-theft, Apple one-app mode and SIM lock', async () => {
    const { customer: c, phone } = await f.phone();
    expect((await post('antitheft_lost_mode', { customer_id: c.id, on: true })).json().code).toBe('ACTION_NOT_ALLOWED');
    expect((await post('install_apple_onemodapp', { customer_id: c.id })).json().code).toBe('ACTION_NOT_ALLOWED');
    expect((await post('sim_lock_unlock', { customer_id: c.id, on: true })).statusCode).toBe(200);
    expect((await phone.next()).type).toBe('sim_lock_unlock');
    // lost_mode is not offered to DPC phones (section 6).
    expect((await post('lost_mode', { customer_id: c.id, on: true, message: 'Found? Call', phone: '+919800000000' })).json().code).toBe('ACTION_NOT_ALLOWED');
    await phone.close();
  });

  it('offers a locked phone only unlock, tracking and the locked info actions', async () => {
    const { customer: c, phone } = await f.phone();
    await post('lock', { customer_id: c.id });
    await phone.ack(await phone.next(), 'done');
    await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(1);
    const panel = (await t.get(`/api/device/details?customer_id=${c.id}`, { token: ravi })).json().data;
    expect(panel.actions).toEqual({ main: ['lock', 'tracking'], info: ['fetch_location', 'sim_info', 'reboot'] });
    expect((await post('camera_lock', { customer_id: c.id, on: true })).json().code).toBe('ACTION_NOT_ALLOWED');
    expect((await post('pin_change', { customer_id: c.id, pin: '1234' })).json().code).toBe('ACTION_NOT_ALLOWED');
    expect((await post('tracking', { customer_id: c.id, on: true })).statusCode).toBe(200);
    await phone.close();
  });

  it('honours the per-customer allow-list', async () => {
    const { customer: c, phone } = await f.phone();
    await t.db.query(`UPDATE customers SET allowed_actions = ARRAY['lock', 'camera_lock'] WHERE id = $1`, [c.id]);
    expect((await post('camera_lock', { customer_id: c.id, on: true })).statusCode).toBe(200);
    expect((await post('usb_debugging', { customer_id: c.id, on: true })).json().code).toBe('ACTION_NOT_ALLOWED');
    await phone.close();
  });
});

describe('EMI alerts from the EMI screen', () => {
  it('reach the phone, and the alert shows the command\'s state', async () => {
    const { customer: c, phone } = await f.phone();
    const sent = await t.post('/api/emi/send_emialert', { customer_id: c.id, message: 'Your EMI is due tomorrow' }, { token: ravi });
    expect(sent.json().data.status).toBe('sent');
    const command = await phone.next();
    expect(command).toMatchObject({ type: 'emi_alert', payload: { message: 'Your EMI is due tomorrow' } });
    await phone.ack(command, 'done');
    await expect.poll(async () => (await t.get(`/api/emi/emi_alerts?customer_id=${c.id}`, { token: ravi })).json().data[0].status).toBe('done');
    // Without a phone the alert waits, queued.
    const bare = await f.customer();
    expect((await t.post('/api/emi/send_emialert', { customer_id: bare.id }, { token: ravi })).json().data.status).toBe('queued');
    await phone.close();
  });
});

describe('uninstall and unclaim', () => {
  it("uninstall needs the customer's UNINSTALL OTP and keeps where the retailer stood; done releases the phone", async () => {
    const { customer: c, device, phone } = await f.phone({ mobile: '+919812300111' });
    const otp = await t.post('/api/auth/send-otp-to-user', { purpose: 'UNINSTALL', mobile: c.mobile }, { token: ravi });
    expect(otp.statusCode, otp.body).toBe(200);
    const requestId = otp.json().data.request_id as string;
    const wrong = await post('uninstall', { customer_id: c.id, request_id: requestId, otp: '000000', latitude: 'Bypassed', longitude: 'Bypassed' });
    expect(wrong.json().code).toBe('OTP_INVALID');
    const res = await post('uninstall', { customer_id: c.id, request_id: requestId, otp: await t.latestOtp(c.mobile), latitude: 'Bypassed', longitude: 'Bypassed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.payload).toEqual({ requested_from: { latitude: 'Bypassed', longitude: 'Bypassed' } });
    const command = await phone.next();
    await phone.ack(command, 'done');
    await expect.poll(async () => (await f.profile(c.id)).install_status).toBe(3);
    // The released phone's credentials stop working.
    expect((await f.checkIn(device, {})).statusCode).toBe(401);
    expect((await post('lock', { customer_id: c.id })).json().code).toBe('DEVICE_NOT_ENROLLED');
    await phone.close();
  });

  it('an OTP for another number or purpose does not uninstall', async () => {
    const { customer: c, phone } = await f.phone({ mobile: '+919812300112' });
    await phone.close();
    const other = await t.post('/api/auth/send-otp-to-user', { purpose: 'UNINSTALL', mobile: '+919812300113' }, { token: ravi });
    const res = await post('uninstall', { customer_id: c.id, request_id: other.json().data.request_id, otp: await t.latestOtp('+919812300113'), latitude: '19.07', longitude: '72.87' });
    expect(res.json().code).toBe('OTP_INVALID');
    const bypass = await t.post('/api/auth/send-otp-to-user', { purpose: 'BYPASS_CODE', mobile: c.mobile }, { token: ravi });
    const res2 = await post('uninstall', { customer_id: c.id, request_id: bypass.json().data.request_id, otp: await t.latestOtp(c.mobile), latitude: '19.07', longitude: '72.87' });
    expect(res2.statusCode).toBe(400);
  });

  it('unclaim waits for the loan to close', async () => {
    const { customer: c, phone } = await f.phone();
    expect((await post('unclaim', { customer_id: c.id })).json().code).toBe('LOAN_OPEN');
    await t.db.query('UPDATE emi_instalments SET paid_paise = amount_paise + penalty_paise WHERE customer_id = $1', [c.id]);
    expect((await post('unclaim', { customer_id: c.id })).statusCode).toBe(200);
    expect((await phone.next()).type).toBe('unclaim');
    await phone.close();
  });
});

describe('enrolment channels', () => {
  it('give each provisioning type its own way in, and none once the loan has ended', async () => {
    const linkfl = await f.customer({ provisioning_type: 2 });
    const link = await t.get(`/api/customer/get_deep_link?customer_id=${linkfl.id}`, { token: ravi });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().data.link).toMatch(/^kisht:\/\/enrol\?server=.+&token=[A-Za-z0-9_-]{43}$/);
    expect((await t.get(`/api/customer/generate_emm_code?customer_id=${linkfl.id}`, { token: ravi })).json().code).toBe('WRONG_ENROLMENT_CHANNEL');
    const dpc = await f.customer();
    expect((await t.get(`/api/customer/get_deep_link?customer_id=${dpc.id}`, { token: ravi })).json().code).toBe('WRONG_ENROLMENT_CHANNEL');
    await t.db.query('UPDATE customers SET install_status = 5 WHERE id = ANY($1::int[])', [[linkfl.id, dpc.id]]);
    expect((await t.get(`/api/customer/get_deep_link?customer_id=${linkfl.id}`, { token: ravi })).json().code).toBe('ENROLMENT_CLOSED');
    expect((await t.get(`/api/customer/generate_emm_code?customer_id=${dpc.id}`, { token: ravi })).json().code).toBe('ENROLMENT_CLOSED');
  });
});

describe("another network's customers", () => {
  it('are not found on any device endpoint', async () => {
    const { customer: c, phone } = await f.phone();
    await phone.close();
    const meena = (await t.signIn(MEENA)).token;
    const id = { customer_id: c.id };
    const posts: Array<[string, Record<string, unknown>]> = [
      ['/api/device/lock', id], ['/api/device/unlock', id], ['/api/device/camera_lock', { ...id, on: true }], ['/api/device/lost_mode', { ...id, on: true }],
      ['/api/device/sim_tracking', { ...id, command: 'SIMTRACKINGON' }], ['/api/device/wallpaper', { ...id, text: 'x', policy: 'alert' }],
      ['/api/device/emi_alert', id], ['/api/device/fetch_location', id], ['/api/device/reboot', id], ['/api/device/sim_info', id],
      ['/api/device/pin_change', { ...id, pin: '1234' }], ['/api/device/unclaim', id],
      ['/api/device/uninstall', { ...id, request_id: '00000000-0000-4000-8000-000000000000', otp: '123456', latitude: 'Bypassed', longitude: 'Bypassed' }],
      ['/api/auth/offline_lock_unlock', { ...id, action: 'unlock' }],
      ['/api/device/bypass_code', { ...id, request_id: '00000000-0000-4000-8000-000000000000', otp: '123456' }],
      ['/api/device/schedule_lock_unlock', { ...id, action: 'lock', run_at: new Date(Date.now() + 3_600_000).toISOString() }],
    ];
    for (const [url, body] of posts) expect((await t.post(url, body, { token: meena })).statusCode, url).toBe(404);
    for (const url of ['/api/device/commands', '/api/device/details', '/api/customer/ouc-code', '/api/device/offline_command_log', '/api/device/schedules',
      '/api/customer/generate_emm_code', '/api/customer/get_deep_link', '/api/customer/customer_sim_change_details']) {
      expect((await t.get(`${url}?customer_id=${c.id}`, { token: meena })).statusCode, url).toBe(404);
    }
    const batch = await t.post('/api/device/multiple_lock_unlock', { action: 'lock', customer_ids: [c.id] }, { token: meena });
    // Another network's id refuses the whole batch, with nothing of the customer in the answer.
    expect(batch.statusCode).toBe(404);
    expect(batch.json().code).toBe('NOT_FOUND');
    expect(batch.body).not.toContain(c.imei1);
    expect((await f.commands(c.id)).length).toBe(0);
  });
});
