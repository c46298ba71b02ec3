import { describe, expect, it } from 'vitest';
import type { SessionItem } from '@kisht/contract/sessions';
import { browserLabel, deviceLabel, orderSessions } from './describe-session.ts';

const base: SessionItem = {
  id: '00000000-0000-4000-8000-000000000001',
  current: false,
  created_at: '2025-01-01T00:00:00Z',
  last_seen_at: '2025-01-02T00:00:00Z',
  expires_at: '2025-02-01T00:00:00Z',
  ip: '10.0.0.1',
  auth_platform: 'mobile',
  device_details: null,
  browser_name: 'Chrome',
  browser_version: '120',
  device_type: 'mobile',
  device_platform: 'Android',
};

describe('session labels', () => {
  it('names the device from the shell details, else from platform and type', () => {
    expect(deviceLabel({ ...base, device_details: '{"brand":"Samsung","model":"A15"}' })).toBe('Samsung A15');
    expect(deviceLabel(base)).toBe('Android · mobile');
    expect(deviceLabel({ ...base, device_platform: null, device_type: null, device_details: 'broken' })).toBeNull();
    expect(browserLabel(base)).toBe('Chrome 120');
  });

  it('puts the current session first, then the most recently active', () => {
    const older = { ...base, id: 'a', last_seen_at: '2025-01-01T00:00:00Z' };
    const newer = { ...base, id: 'b', last_seen_at: '2025-01-05T00:00:00Z' };
    const current = { ...base, id: 'c', current: true, last_seen_at: '2024-12-01T00:00:00Z' };
    expect(orderSessions([older, current, newer]).map((s) => s.id)).toEqual(['c', 'b', 'a']);
  });
});
