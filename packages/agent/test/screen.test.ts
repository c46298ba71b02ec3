/** The virtual phone page's server: its state, its page and its inputs, on an agent enrolled with the real server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRupees } from '@kisht/domain/money';
import type { DeviceAgent } from '../src/agent.ts';
import { startScreen, type ScreenServer } from '../src/screen/screen-server.ts';
import type { PhoneView } from '../src/screen/view.ts';
import { action, enrolledPhone, lockStatus, startLiveServer, type LiveServer } from './support.ts';

let live: LiveServer;
let agent: DeviceAgent;
let customerId: number;
let screen: ScreenServer;

beforeAll(async () => {
  live = await startLiveServer();
  const p = await enrolledPhone(live);
  agent = p.agent;
  customerId = p.customer.id;
  screen = await startScreen(agent, { org: 'Ravi Mobiles Finance' });
});
afterAll(async () => {
  await screen.close();
  await agent.stop();
  await live.stop();
});

const state = async () => (await (await fetch(`${screen.url}/state`)).json()) as PhoneView;
const post = async (path: string, body: unknown) => (await fetch(`${screen.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();

describe('the virtual phone page', () => {
  it('serves an accessible page and English strings', async () => {
    const html = await (await fetch(screen.url)).text();
    expect(html).toContain('<label for="code-input"');
    expect(html).toContain('aria-labelledby="tester-heading"');
    const strings = await (await fetch(`${screen.url}/strings?lng=hn`)).json();
    expect(strings.lock.heading).toEqual(expect.any(String));
    expect(strings.code.label).toEqual(expect.any(String));
  });

  it('shows the lock screen with the amount due and the UPI QR once the phone is locked', async () => {
    expect(await state()).toMatchObject({ status: 'enrolled', locked: false, online: true, org: 'Ravi Mobiles Finance' });
    const events = new AbortController();
    const stream = await fetch(`${screen.url}/events`, { signal: events.signal });
    const reader = stream.body!.getReader();

    await action(live, '/api/device/lock', { customer_id: customerId });
    await expect.poll(async () => (await state()).locked).toBe(true);
    const view = await state();
    const lockScreen = agent.snapshot().screen.lockScreen!;
    expect(view.lockScreen).toMatchObject({ amountDue: lockScreen.amount_due > 0 ? formatRupees(lockScreen.amount_due) : null, retailerName: lockScreen.retailer_name, retailerMobile: lockScreen.retailer_mobile });
    expect(view.lng).toBe(lockScreen.language ?? 'en');
    if (lockScreen.upi) expect(view.lockScreen!.upiQr).toMatch(/^data:image\/png;base64,/);

    // The event stream carried the locked state too.
    let text = '';
    while (!text.includes('"locked":true')) text += new TextDecoder().decode((await reader.read()).value);
    events.abort();
  });

  it('takes codes, the network switch and a SIM swap from the page', async () => {
    expect(await post('/code', { code: '11111111' })).toMatchObject({ ok: false, reason: 'wrong' });
    expect((await state()).code.last).toMatchObject({ ok: false, reason: 'wrong' });
    expect(await post('/network', { on: false })).toEqual({ online: false });
    expect(await state()).toMatchObject({ online: false, connected: false });
    const code = (await live.t.post('/api/auth/offline_lock_unlock', { customer_id: customerId, action: 'unlock' }, { token: live.ravi })).json().data.code;
    expect(await post('/code', { code })).toMatchObject({ ok: true, purpose: 'unlock' });
    expect((await state()).locked).toBe(false);
    await post('/sim', { slot: 2, operator: 'Vi', iccid: '8991000000000000077' });
    // "SIM 2" on the page is the protocol's slot 1 (slots start at 0).
    expect((await state()).sims).toContainEqual({ slot: 1, operator: 'Vi', iccid: '8991000000000000077' });
    await post('/network', { on: true });
    await expect.poll(async () => (await state()).connected).toBe(true);
    await expect.poll(() => lockStatus(live, customerId)).toBe(0);
    await expect.poll(async () => (await live.t.get(`/api/customer/customer_sim_change_details?customer_id=${customerId}`, { token: live.ravi })).json().data.total).toBe(1);
  });
});
