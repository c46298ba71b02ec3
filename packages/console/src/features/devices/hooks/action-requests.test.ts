import { describe, expect, it } from 'vitest';
import { DEVICE_ACTIONS } from '@kisht/domain/device-actions';
import { TOGGLE_ACTIONS as PROTOCOL_TOGGLES, ONE_SHOT_ACTIONS } from '@kisht/protocol/messages';
import {
  actionKind, deviceRequest, isValidLostModePhone, isValidOtp, isValidPin, lockControlAction, LOST_MODE_ACTIONS, ONCE_ACTIONS, TOGGLE_ACTIONS,
} from './action-requests.ts';

describe('actionKind', () => {
  it('knows every device action of the specification and the PIN change', () => {
    for (const action of DEVICE_ACTIONS) expect(actionKind(action), action).not.toBeNull();
    expect(actionKind('pin_change')).toBe('pin_change');
    expect(actionKind('self_destruct')).toBeNull();
  });

  it('agrees with the protocol on toggles and one-shot actions', () => {
    expect([...TOGGLE_ACTIONS, ...LOST_MODE_ACTIONS].sort()).toEqual([...PROTOCOL_TOGGLES].sort());
    expect([...ONCE_ACTIONS].sort()).toEqual([...ONE_SHOT_ACTIONS, 'unclaim'].sort());
  });
});

describe('deviceRequest', () => {
  it('turns the lock control into lock or unlock by the lock status', () => {
    expect(lockControlAction(false)).toBe('lock');
    expect(deviceRequest(7, { kind: 'lock', locked: false, message: '  Pay today ' })).toEqual({ url: '/api/device/lock', body: { customer_id: 7, message: 'Pay today' } });
    expect(deviceRequest(7, { kind: 'lock', locked: false, message: ' ' })).toEqual({ url: '/api/device/lock', body: { customer_id: 7 } });
    expect(deviceRequest(7, { kind: 'lock', locked: true, message: 'ignored' })).toEqual({ url: '/api/device/unlock', body: { customer_id: 7 } });
  });

  it('sends toggles as { customer_id, on } to their own route', () => {
    expect(deviceRequest(3, { kind: 'toggle', action: 'camera_lock', on: true })).toEqual({ url: '/api/device/camera_lock', body: { customer_id: 3, on: true } });
    expect(deviceRequest(3, { kind: 'toggle', action: 'wifi_on_off', on: false })).toEqual({ url: '/api/device/wifi_on_off', body: { customer_id: 3, on: false } });
  });

  it('sends lost mode with its message and phone when given', () => {
    expect(deviceRequest(3, { kind: 'lost_mode', action: 'lost_mode', on: true, message: 'Return me', phone: '+919876543210' })).toEqual({
      url: '/api/device/lost_mode',
      body: { customer_id: 3, on: true, message: 'Return me', phone: '+919876543210' },
    });
    expect(deviceRequest(3, { kind: 'lost_mode', action: 'antitheft_lost_mode', on: false, message: '', phone: '' })).toEqual({
      url: '/api/device/antitheft_lost_mode',
      body: { customer_id: 3, on: false },
    });
  });

  it('sends SIM tracking as one of the four command strings', () => {
    const command = (action: 'sim_tracking_online' | 'sim_tracking_offline', on: boolean) =>
      (deviceRequest(1, { kind: 'sim_tracking', action, on }).body as { command: string }).command;
    expect(deviceRequest(1, { kind: 'sim_tracking', action: 'sim_tracking_online', on: true }).url).toBe('/api/device/sim_tracking');
    expect([command('sim_tracking_online', true), command('sim_tracking_online', false), command('sim_tracking_offline', true), command('sim_tracking_offline', false)])
      .toEqual(['SIMTRACKINGON', 'SIMTRACKINGOFF', 'SIMTRACKINGOFFLINEON', 'SIMTRACKINGOFFLINEOFF']);
  });

  it('sends wallpaper, EMI alert, PIN and one-shot actions', () => {
    expect(deviceRequest(2, { kind: 'wallpaper', text: ' Pay EMI ', policy: 'alert' })).toEqual({ url: '/api/device/wallpaper', body: { customer_id: 2, text: 'Pay EMI', policy: 'alert' } });
    expect(deviceRequest(2, { kind: 'emi_alert' })).toEqual({ url: '/api/device/emi_alert', body: { customer_id: 2 } });
    expect(deviceRequest(2, { kind: 'emi_alert', message: 'Due' })).toEqual({ url: '/api/device/emi_alert', body: { customer_id: 2, message: 'Due' } });
    expect(deviceRequest(2, { kind: 'pin_change', pin: '4321' })).toEqual({ url: '/api/device/pin_change', body: { customer_id: 2, pin: '4321' } });
    expect(deviceRequest(2, { kind: 'once', action: 'fetch_location' })).toEqual({ url: '/api/device/fetch_location', body: { customer_id: 2 } });
  });

  it('sends uninstall with the OTP and the location as text', () => {
    expect(
      deviceRequest(9, { kind: 'uninstall', action: 'uninstall_antitheft', requestId: 'r-1', otp: '123456', location: { latitude: 'Bypassed', longitude: 'Bypassed' } }),
    ).toEqual({
      url: '/api/device/uninstall_antitheft',
      body: { customer_id: 9, request_id: 'r-1', otp: '123456', latitude: 'Bypassed', longitude: 'Bypassed' },
    });
  });
});

describe('input checks', () => {
  it('takes PINs of 4 to 8 digits, OTPs of 6, phones of 10 to 13 digits', () => {
    expect(['123', '1234', '12345678', '123456789', '12a4'].map(isValidPin)).toEqual([false, true, true, false, false]);
    expect(['12345', '123456', '1234567'].map(isValidOtp)).toEqual([false, true, false]);
    expect(['', '9876543210', '+919876543210', '98765'].map(isValidLostModePhone)).toEqual([true, true, true, false]);
  });
});
