/**
 * Power cuts at the moments a phone has told the server something it must remember: in the middle of a release
 * (unclaim, uninstall), where the phone stores that it is releasing with its `done` and the next start ends the release
 * whether or not the server heard; and while the security app activates its code, bound to an id the phone must keep.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatActivationCode } from '@kisht/domain/activation-code';
import { DeviceAgent } from '../src/agent.ts';
import type { PhoneState } from '../src/state.ts';
import { MemoryStore } from '../src/store.ts';
import { action, commandsOf, enrolledPhone, startLiveServer, type LiveServer } from './support.ts';

let live: LiveServer;
const agents: DeviceAgent[] = [];

beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await live.stop();
});

/** A store that keeps a copy of each state written, and can run something at a chosen write (a power cut). */
class WatchedStore extends MemoryStore {
  readonly written: PhoneState[] = [];
  at: ((state: PhoneState) => void) | null = null;
  override save(state: PhoneState): void {
    super.save(state);
    this.written.push(structuredClone(state));
    this.at?.(state);
  }
}

/** Where the server has the phone's unclaim: 'done' once it heard the phone carried it out. */
async function unclaimState(customerId: number): Promise<string | undefined> {
  return (await commandsOf(live, customerId)).find((c) => c.type === 'unclaim')?.state;
}

/** A phone whose loan is paid, so the shop may unclaim it. */
async function paidOffPhone(store: MemoryStore) {
  const p = await enrolledPhone(live, { store });
  agents.push(p.agent);
  await live.t.db.query('UPDATE emi_instalments SET paid_paise = amount_paise + penalty_paise WHERE customer_id = $1', [p.customer.id]);
  return p;
}

/**
 * A paid-off phone unclaimed, whose power goes at the write that carries the `done`, the network with it, so the event
 * never leaves: what its store held then.
 */
async function cutAtRelease(): Promise<{ customer: { id: number }; kept: PhoneState }> {
  const store = new WatchedStore();
  const { customer, agent } = await paidOffPhone(store);
  let kept: PhoneState | null = null;
  store.at = (state) => {
    if (!state.releasing || kept) return;
    kept = structuredClone(state);
    void agent.goOffline();
  };
  await action(live, '/api/device/unclaim', { customer_id: customer.id });
  await expect.poll(() => kept !== null).toBe(true);
  await agent.stop();
  return { customer, kept: kept! };
}

/** A paid-off phone unclaimed, released in the ordinary way; its store kept every state it was given. */
async function unclaimedPhone() {
  const store = new WatchedStore();
  const { customer, agent } = await paidOffPhone(store);
  const released = once(agent, 'released');
  await action(live, '/api/device/unclaim', { customer_id: customer.id });
  await released;
  return { store, customer, agent };
}

/** Starts a phone and waits until it has released itself. */
async function startUntilReleased(phone: DeviceAgent): Promise<void> {
  const released = once(phone, 'released');
  phone.start();
  await released;
}

/** The phone after a power cut: a new agent on what the store held at that moment. */
function restarted(state: PhoneState): DeviceAgent {
  const store = new MemoryStore();
  store.save(state);
  const agent = new DeviceAgent({ store, tickMs: 200 });
  agents.push(agent);
  return agent;
}

describe('release', () => {
  it('unclaim opens the phone, tells the server, then drops the credentials; the server has it done', async () => {
    const { store, customer, agent } = await unclaimedPhone();
    const state = agent.snapshot();
    expect(state).toMatchObject({ status: 'released', credentials: null, outbox: [], selfLocked: false });
    expect(state.releasing).toBeUndefined();
    expect(state.screen.locked).toBe(false);
    // The state that went with the `done` already said the phone was releasing.
    const withDone = store.written.find((s) => s.releasing);
    expect(withDone?.status).toBe('enrolled');
    expect(withDone?.outbox.length).toBeGreaterThan(0);
    await expect.poll(() => unclaimState(customer.id)).toBe('done');
  });

  it('a power cut after the done was stored and before it left: the next start sends it, then releases', async () => {
    const { customer, kept } = await cutAtRelease();
    // The server never heard: the phone is still enrolled there, and the phone still holds its credentials.
    expect(await unclaimState(customer.id)).not.toBe('done');
    expect(kept.credentials).not.toBeNull();
    expect(kept.screen.locked).toBe(false);

    const phone = restarted(kept);
    await startUntilReleased(phone);
    expect(phone.snapshot()).toMatchObject({ status: 'released', credentials: null });
    await expect.poll(() => unclaimState(customer.id)).toBe('done');
  });

  it('a lock the shop asks for while a release is unheard ends with the release: the released phone is open', async () => {
    const { customer, kept } = await cutAtRelease();
    // The server has not heard the unclaim, so the shop can still lock the phone; the lock is queued behind it.
    const lock = await live.t.post('/api/device/lock', { customer_id: customer.id }, { token: live.ravi });
    expect(lock.statusCode, lock.body).toBe(200);

    const phone = restarted(kept);
    await startUntilReleased(phone);
    await expect.poll(() => unclaimState(customer.id)).toBe('done');
    // Released means open: no credentials are left to unlock it with.
    expect(phone.snapshot()).toMatchObject({ status: 'released', credentials: null, selfLocked: false });
    expect(phone.snapshot().screen.locked).toBe(false);
    expect((await commandsOf(live, customer.id)).find((c) => c.type === 'lock')?.state).toBe('expired');
  });

  it('a power cut after the server had the done: the refused credentials end the release at the next start', async () => {
    const { store, customer } = await unclaimedPhone();
    await expect.poll(() => unclaimState(customer.id)).toBe('done');
    // What the store held just before the credentials were dropped: releasing, the `done` possibly still unconfirmed.
    const before = store.written.filter((s) => s.releasing && s.status === 'enrolled').at(-1)!;
    expect(before.credentials).not.toBeNull();
    if (before.outbox.length === 0) before.outbox = [store.written.find((s) => s.releasing)!.outbox.at(-1)!];

    const phone = restarted(before);
    await startUntilReleased(phone);
    expect(phone.snapshot()).toMatchObject({ status: 'released', credentials: null, outbox: [] });
  });

  it('a releasing phone never locks itself, however long it stays away from the server', async () => {
    const { customer, kept } = await cutAtRelease();

    const state = { ...kept, offlineLockDays: 3, lastCheckIn: Date.now() };
    const days = 40;
    const store2 = new MemoryStore();
    store2.save(state);
    const phone = new DeviceAgent({ store: store2, tickMs: 200, now: () => Date.now() + days * 86_400_000 });
    agents.push(phone);
    await phone.goOffline();
    phone.start();
    phone.tick();
    expect(phone.snapshot()).toMatchObject({ selfLocked: false, releasing: true, status: 'enrolled' });
    expect(phone.snapshot().screen.locked).toBe(false);
    // The same state without the release under way locks itself on the same clock (the check is the one that counts).
    const control = new MemoryStore();
    control.save({ ...state, releasing: false });
    const other = new DeviceAgent({ store: control, tickMs: 200, now: () => Date.now() + days * 86_400_000 });
    agents.push(other);
    other.tick();
    expect(other.snapshot().selfLocked).toBe(true);
    expect(await unclaimState(customer.id)).not.toBe('done');
  });
});

describe('the security app', () => {
  it('stores its installation id before the server binds the code to it: after a power cut the same code activates again', async () => {
    const plans = (await live.t.get('/api/customer/get_plans_antihacking', { token: live.ravi })).json().data as Array<{ id: number; name: string; app_type: number; product_type: number }>;
    const plan = plans.find((p) => p.product_type === 8)!;
    const mobile = '+919845077777';
    const sold = await live.t.post('/api/customer/add_customer_antihacking', {
      firstName: 'Meenakshi', lastName: 'Sundaram', email: 'meenakshi@example.com', mobile, plan_id: plan.id, app_type: plan.app_type, plan_name: plan.name,
    }, { token: live.ravi });
    expect(sold.statusCode, sold.body).toBe(200);
    const code = formatActivationCode((sold.json().data as Array<{ antihacking_code: string }>)[0]!.antihacking_code);

    const store = new WatchedStore();
    const { agent } = await enrolledPhone(live, { store });
    agents.push(agent);
    expect(await agent.activateProtection(code, mobile)).toEqual({ ok: true });
    // The power went as the answer came: the store holds the id, not the activation.
    const cut = store.written.find((s) => s.installId && !s.protection);
    expect(cut?.installId).toBe(agent.snapshot().installId);
    await agent.stop();

    const phone = restarted(cut!);
    expect(await phone.activateProtection(code, mobile)).toEqual({ ok: true });
    expect(phone.snapshot().protection).toMatchObject({ state: 'active', planName: plan.name });
  });
});
