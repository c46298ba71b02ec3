import { describe, expect, it } from 'vitest';
import type { DeviceCommand, DevicePanel } from '@kisht/contract/devices';
import { anyUnfinished, isFinished, profileMayHaveChanged, mapLink, readResult, stateTimes, withCommand } from './command-status.ts';

const command = (id: string, seq: number, type: string, state: string, extra: Partial<DeviceCommand> = {}): DeviceCommand => ({
  id, seq, type, state, result: null, payload: {}, origin: 'retailer', created_at: '2026-07-01T04:00:00.000Z',
  sent_at: null, delivered_at: null, finished_at: null, expires_at: '2026-07-02T04:00:00.000Z', ...extra,
});
const panel = (lockStatus: number, commands: DeviceCommand[]): DevicePanel => ({ device: null, lock_status: lockStatus, actions: { main: [], info: [] }, commands });

describe('command states', () => {
  it('knows which states are final and whether to keep polling', () => {
    expect(['queued', 'sent', 'delivered', 'done', 'failed', 'expired'].map(isFinished)).toEqual([false, false, false, true, true, true]);
    expect(anyUnfinished([command('a', 1, 'reboot', 'done'), command('b', 2, 'lock', 'sent')])).toBe(true);
    expect(anyUnfinished([command('a', 1, 'reboot', 'failed')])).toBe(false);
    expect(anyUnfinished(undefined)).toBe(false);
  });

  it('sees a lock or unlock settle between two reads, not a first read or other commands', () => {
    const running = panel(0, [command('l', 2, 'lock', 'delivered'), command('r', 1, 'reboot', 'sent')]);
    expect(profileMayHaveChanged(undefined, running)).toBe(false);
    expect(profileMayHaveChanged(running, panel(0, [command('l', 2, 'lock', 'delivered'), command('r', 1, 'reboot', 'done')]))).toBe(false);
    expect(profileMayHaveChanged(running, panel(0, [command('l', 2, 'lock', 'failed'), command('r', 1, 'reboot', 'sent')]))).toBe(true);
    expect(profileMayHaveChanged(panel(0, []), panel(1, []))).toBe(true);
  });

  it('adds a new command or replaces the same one, newest first', () => {
    const list = [command('b', 2, 'reboot', 'sent'), command('a', 1, 'lock', 'done')];
    expect(withCommand(list, command('c', 3, 'sim_info', 'queued')).map((c) => c.id)).toEqual(['c', 'b', 'a']);
    expect(withCommand(list, command('b', 2, 'reboot', 'done')).map((c) => c.state)).toEqual(['done', 'done']);
  });

  it('reads a location, SIMs or an error from the result', () => {
    expect(readResult({ location: { latitude: 19.07, longitude: 72.87, accuracy: 12, at: '2026-07-01T04:00:00Z' } }).location).toEqual({
      latitude: 19.07, longitude: 72.87, accuracy: 12, at: '2026-07-01T04:00:00Z',
    });
    expect(readResult({ sims: [{ slot: 0, operator: 'Jio', iccid: '8991' }] }).sims).toEqual([{ slot: 0, operator: 'Jio', iccid: '8991', number: null }]);
    expect(readResult({ error: 'NO_FIX' }).error).toBe('NO_FIX');
    expect(readResult(null)).toEqual({ location: null, sims: null, error: null });
    expect(readResult({ location: { latitude: 'x' } }).location).toBeNull();
    expect(mapLink(19.07, 72.87)).toBe('https://www.google.com/maps/search/?api=1&query=19.07,72.87');
  });

  it('lists the time of each state reached', () => {
    const done = command('a', 1, 'lock', 'done', { sent_at: '2026-07-01T04:00:01.000Z', delivered_at: '2026-07-01T04:00:02.000Z', finished_at: '2026-07-01T04:00:03.000Z' });
    expect(stateTimes(done).map((s) => s.state)).toEqual(['queued', 'sent', 'delivered', 'done']);
    expect(stateTimes(command('b', 2, 'lock', 'expired')).map((s) => s.state)).toEqual(['queued', 'expired']);
  });
});
