/** Anti-theft on the phone (decision 022, protocol revision 4): ringing, and a lost phone telling where it is. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { LOST_MODE_CHECK_IN_SECONDS, RING_SECONDS } from '@kisht/protocol/messages';
import type { DeviceAgent } from '../src/agent.ts';
import { action, enrolledPhone, startLiveServer, type LiveServer } from './support.ts';

let live: LiveServer;
const agents: DeviceAgent[] = [];

beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await live.stop();
});

const reportedLocation = async (customerId: number) =>
  ((await live.t.get(`/api/device/details?customer_id=${customerId}`, { token: live.ravi })).json().data.device.reported.location ?? null) as { latitude: number } | null;

describe('an anti-theft phone', () => {
  it('rings for a minute when asked; a phone without anti-theft is not offered it', async () => {
    let clock = Date.UTC(2026, 10, 26, 6, 0, 0);
    const { customer, agent } = await enrolledPhone(live, { now: () => clock }, PRODUCT_TYPE.DPC_ANTITHEFT);
    agents.push(agent);
    await action(live, '/api/device/ring', { customer_id: customer.id });
    await expect.poll(() => agent.snapshot().screen.alarmUntil).toBe(clock + RING_SECONDS * 1000);
    clock += 1000;

    const plain = await enrolledPhone(live);
    agents.push(plain.agent);
    const refused = await live.t.post('/api/device/ring', { customer_id: plain.customer.id }, { token: live.ravi });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ACTION_NOT_ALLOWED');
    expect(plain.agent.snapshot().screen.alarmUntil ?? null).toBeNull();
  });

  it('checks in with its location at once when lost, then every few minutes while lost, and at the usual interval once found', async () => {
    let clock = Date.UTC(2026, 10, 26, 7, 0, 0);
    const { customer, agent } = await enrolledPhone(live, { now: () => clock }, PRODUCT_TYPE.DPC_ANTITHEFT);
    agents.push(agent);
    const checkIns: number[] = [];
    agent.on('check-in', () => checkIns.push(clock));

    // Not lost: five minutes on, no check-in (the usual interval is 15 minutes), so the server has no location.
    agent.setLocation(12.9716, 77.5946);
    clock += (LOST_MODE_CHECK_IN_SECONDS + 1) * 1000;
    await new Promise((r) => setTimeout(r, 1000));
    expect(checkIns).toEqual([]);
    expect(await reportedLocation(customer.id)).toBeNull();

    // Lost: at once, with where it is.
    await action(live, '/api/device/antitheft_lost_mode', { customer_id: customer.id, on: true, message: 'Lost phone', phone: '+919700011122' });
    await expect.poll(() => checkIns.length).toBe(1);
    await expect.poll(async () => (await reportedLocation(customer.id))?.latitude).toBe(12.9716);

    // Moved while lost: the next check-in, five minutes later, brings the new place.
    agent.setLocation(13.0827, 80.2707);
    clock += (LOST_MODE_CHECK_IN_SECONDS - 10) * 1000;
    await new Promise((r) => setTimeout(r, 800));
    expect(checkIns).toHaveLength(1);
    clock += 11_000;
    await expect.poll(() => checkIns.length).toBe(2);
    await expect.poll(async () => (await reportedLocation(customer.id))?.latitude).toBe(13.0827);

    // Found: lost mode off, and the phone goes back to the usual interval.
    await action(live, '/api/device/antitheft_lost_mode', { customer_id: customer.id, on: false });
    await expect.poll(() => agent.snapshot().screen.lostMode.on).toBe(false);
    const before = checkIns.length;
    clock += (LOST_MODE_CHECK_IN_SECONDS + 1) * 1000;
    await new Promise((r) => setTimeout(r, 800));
    expect(checkIns).toHaveLength(before);
  });
});
