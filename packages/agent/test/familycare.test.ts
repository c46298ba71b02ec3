/**
 * Family care on the phone (decision 024, protocol revision 5): a parent's rules from the server, kept with their
 * version and enforced on the phone's own clock with or without the network; usage reported and read back.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { addDays } from '@kisht/domain/calendar';
import { indiaDate } from '@kisht/protocol/family-rules';
import { USAGE_REPORT_SECONDS, type FamilyRules } from '@kisht/protocol/messages';
import { seal } from '@kisht/protocol/signing';
import { DeviceAgent, type CommandReport } from '../src/agent.ts';
import { MemoryStore } from '../src/store.ts';
import { startScreen } from '../src/screen/screen-server.ts';
import type { PhoneView } from '../src/screen/view.ts';
import { enrolledPhone, startLiveServer, type LiveServer } from './support.ts';

let live: LiveServer;
const agents: DeviceAgent[] = [];

beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await live.stop();
});

const GAME = 'com.example.game';
const VIDEO = 'com.google.android.youtube';
const STUDY = 'org.khanacademy.android';
const DIALLER = 'com.android.dialer';
const MIN = 60_000;

const RULES: FamilyRules = {
  daily_limit_minutes: [30, 30, 30, 30, 30, 30, 30], downtime: [{ start: '21:30', end: '07:00' }],
  allowed_apps: [STUDY], blocked_apps: [GAME], lock_until: null,
};

/**
 * An India wall-clock time `daysAgo` days before the server's today. The server lists usage for the days up to its
 * own today, so the phone's clock stays at or before it; and near the real time, so commands have not expired.
 */
function indiaTime(daysAgo: number, time: string): number {
  return Date.parse(`${addDays(indiaDate(Date.now()), -daysAgo)}T${time}:00+05:30`);
}

/** A family-care phone on a clock the test moves. */
async function familyPhone(start: number) {
  const clock = { now: start };
  const store = new MemoryStore();
  const { customer, agent } = await enrolledPhone(live, { now: () => clock.now, store }, PRODUCT_TYPE.FAMILYCARE);
  agents.push(agent);
  /** Moves the clock and lets the phone's own tick see it. */
  const advance = (ms: number) => {
    clock.now += ms;
    agent.tick();
  };
  return { customer, agent, clock, store, advance };
}

async function setRules(customerId: number, rules: FamilyRules): Promise<number> {
  const res = await live.t.post('/api/customer/familycare', { customer_id: customerId, rules }, { token: live.ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.version as number;
}

async function familyCare(customerId: number) {
  return (await live.t.get(`/api/customer/familycare?customer_id=${customerId}`, { token: live.ravi })).json().data as { version: number; applied_version: number | null };
}

async function usageOn(customerId: number, day: string) {
  const res = await live.t.get(`/api/customer/familycare/usage?customer_id=${customerId}&days=7`, { token: live.ravi });
  expect(res.statusCode, res.body).toBe(200);
  const days = res.json().data.days as Array<{ day: string; total_seconds: number; apps: Array<{ app: string; seconds: number }> }>;
  return days.find((d) => d.day === day) ?? null;
}

const secondsOf = (usage: Array<{ app: string; seconds: number }> | undefined, app: string) => usage?.find((u) => u.app === app)?.seconds ?? 0;

describe('a family-care phone', () => {
  it('keeps to a 30-minute limit and bedtime on its own clock, offline and after a restart; the dialler always opens; usage reaches the server', async () => {
    const evening = indiaTime(1, '20:00');
    const yesterday = indiaDate(evening);
    const today = addDays(yesterday, 1);
    const { customer, agent, clock, store, advance } = await familyPhone(evening);

    const version = await setRules(customer.id, RULES);
    await expect.poll(() => agent.snapshot().familyCare?.version).toBe(version);
    // The phone's done reaches the server: the console can say the rules are on the phone.
    await expect.poll(async () => (await familyCare(customer.id)).applied_version).toBe(version);
    expect(agent.snapshot().familyCare).toMatchObject({ day: yesterday, limitMinutes: 30, secondsLeft: 1800, block: null });

    // From here on the phone has no network: everything below is its own doing.
    await agent.goOffline();
    expect(agent.openApp(GAME)).toEqual({ allowed: false, reason: 'blocked', until: null });
    expect(agent.openApp(VIDEO)).toEqual({ allowed: true, secondsLeft: 1800 });
    advance(20 * MIN);
    expect(agent.snapshot().familyCare).toMatchObject({ foreground: VIDEO, secondsLeft: 600, screenSeconds: 1200 });

    // The clock runs past the limit: the video is closed when the 30 minutes were up, not later.
    advance(15 * MIN);
    const midnight = Date.parse(`${today}T00:00:00+05:30`);
    expect(agent.snapshot().familyCare).toMatchObject({
      foreground: null, secondsLeft: 0, block: { reason: 'limit', until: midnight },
      refused: { app: VIDEO, verdict: { allowed: false, reason: 'limit', until: midnight } }, usage: [{ app: VIDEO, seconds: 1800 }],
    });
    expect(agent.openApp(VIDEO)).toEqual({ allowed: false, reason: 'limit', until: midnight });
    // The study app the parent allowed, and the dialler, still open; neither counts as screen time.
    expect(agent.openApp(STUDY)).toEqual({ allowed: true, secondsLeft: null });
    advance(5 * MIN);
    expect(agent.openApp(DIALLER)).toEqual({ allowed: true, secondsLeft: null });
    advance(3 * MIN);
    agent.closeApp();
    expect(agent.snapshot().familyCare).toMatchObject({ screenSeconds: 1800, foreground: null, refused: null });

    // Bedtime (21:30 to 07:00): downtime comes before the limit, and says when it ends.
    clock.now = indiaTime(1, '22:00');
    agent.tick();
    const morning = Date.parse(`${today}T07:00:00+05:30`);
    expect(agent.snapshot().familyCare?.block).toEqual({ reason: 'downtime', until: morning });
    expect(agent.openApp(VIDEO)).toEqual({ allowed: false, reason: 'downtime', until: morning });
    expect(agent.openApp(DIALLER)).toEqual({ allowed: true, secondsLeft: null });
    agent.closeApp();

    // A call past midnight: its time is split between the two days, and the new day has a fresh limit (still bedtime).
    clock.now = midnight - 10 * MIN;
    agent.openApp(DIALLER);
    advance(25 * MIN);
    expect(agent.snapshot().familyCare).toMatchObject({ day: today, secondsLeft: 1800, block: { reason: 'downtime', until: morning }, foreground: DIALLER, usage: [{ app: DIALLER, seconds: 900 }] });
    agent.closeApp();

    // Switched off and on again, still without a network: the rules are in its store.
    await agent.stop();
    const again = new DeviceAgent({ store, now: () => clock.now, tickMs: 200 });
    agents.push(again);
    await again.goOffline();
    again.start();
    expect(again.snapshot().familyCare?.version).toBe(version);
    expect(again.openApp(VIDEO)).toEqual({ allowed: false, reason: 'downtime', until: morning });
    clock.now = morning;
    again.tick();
    expect(again.openApp(VIDEO)).toEqual({ allowed: true, secondsLeft: 1800 });
    clock.now += 10 * MIN;
    again.tick();
    // Reports made offline wait in the outbox; the finished day went once more after midnight.
    expect(again.snapshot().outbox.length).toBeGreaterThan(0);

    // Back online: the outbox empties and the server has both days as the phone counted them.
    again.goOnline();
    expect(await again.outboxEmpty(10_000)).toBe(true);
    await expect.poll(async () => secondsOf((await usageOn(customer.id, yesterday))?.apps, VIDEO)).toBe(1800);
    const before = await usageOn(customer.id, yesterday);
    expect(secondsOf(before?.apps, STUDY)).toBe(300);
    expect(secondsOf(before?.apps, DIALLER)).toBe(180 + 600);
    expect(secondsOf((await usageOn(customer.id, today))?.apps, DIALLER)).toBe(900);

    // Today's report follows every USAGE_REPORT_SECONDS while there is new usage, by the schedule alone.
    await expect.poll(async () => secondsOf((await usageOn(customer.id, today))?.apps, VIDEO)).toBe(600);
    clock.now += USAGE_REPORT_SECONDS * 1000;
    again.tick();
    await expect.poll(async () => secondsOf((await usageOn(customer.id, today))?.apps, VIDEO)).toBe(600 + USAGE_REPORT_SECONDS);
  });

  it('ignores a replayed or older family_rules, a bad one, and one sealed with another phone\'s secret', async () => {
    const { customer, agent } = await familyPhone(indiaTime(0, '00:30'));
    const seen: CommandReport[] = [];
    agent.on('command', (r) => seen.push(r));
    const first = await setRules(customer.id, RULES);
    const second = await setRules(customer.id, { ...RULES, daily_limit_minutes: [60, 60, 60, 60, 60, 60, 60] });
    expect(second).toBe(first + 1);
    await expect.poll(() => agent.snapshot().familyCare?.version).toBe(second);
    await agent.idle();
    expect(agent.snapshot().familyCare?.limitMinutes).toBe(60);

    const { credentials } = agent.snapshot();
    const topic = credentials!.commandTopic;
    const publish = (text: string) => live.t.broker.client.publishAsync(topic, text, { qos: 1 });
    const command = (version: number, rules: unknown) => ({
      v: 1, id: randomUUID(), seq: agent.snapshot().lastSeq + 1, type: 'family_rules', payload: { version, rules },
      issued_at: new Date().toISOString(), expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const outcomeOf = (id: string) => agent.snapshot().outcomes.find((o) => o.id === id);
    const strict = { ...RULES, daily_limit_minutes: [0, 0, 0, 0, 0, 0, 0] };

    // An older version, properly sealed with a fresh seq: done, naming the version kept, and nothing changes.
    const older = command(first, strict);
    await publish(seal(credentials!.offlineSecret, older));
    await expect.poll(() => outcomeOf(older.id)).toEqual({ id: older.id, seq: older.seq, state: 'done', result: { version: second } });
    // The same version again is no newer either.
    const same = command(second, strict);
    await publish(seal(credentials!.offlineSecret, same));
    await expect.poll(() => outcomeOf(same.id)?.result).toEqual({ version: second });
    expect(agent.snapshot().familyCare).toMatchObject({ version: second, limitMinutes: 60 });

    // A newer version sealed with another phone's secret: a forgery, ignored.
    const forged = command(second + 5, strict);
    await publish(seal(randomBytes(32).toString('base64url'), forged));
    await expect.poll(() => seen.some((r) => r.outcome === 'forged')).toBe(true);
    // A newer version with rules out of bounds: failed, and the kept rules stay.
    const bad = command(second + 1, { ...strict, downtime: [{ start: '25:00', end: '07:00' }] });
    await publish(seal(credentials!.offlineSecret, bad));
    await expect.poll(() => outcomeOf(bad.id)).toMatchObject({ state: 'failed', result: { error: 'bad_payload' } });
    expect(agent.snapshot().familyCare).toMatchObject({ version: second, limitMinutes: 60 });

    // A newer version, properly sealed: taken. Sent again, the same text is a replay: reported again, not taken again.
    const newer = command(second + 1, strict);
    const text = seal(credentials!.offlineSecret, newer);
    await publish(text);
    await expect.poll(() => agent.snapshot().familyCare?.version).toBe(second + 1);
    expect(agent.snapshot().familyCare?.limitMinutes).toBe(0);
    expect(agent.openApp(VIDEO)).toMatchObject({ allowed: false, reason: expect.stringMatching(/^(limit|downtime)$/) });
    const done = agent.stats.commandsDone;
    await publish(text);
    await expect.poll(() => seen.some((r) => r.outcome === 'repeated' && r.id === newer.id)).toBe(true);
    expect(agent.stats.commandsDone).toBe(done);
    expect(agent.snapshot().familyCare?.version).toBe(second + 1);
  });

  it('shows the child time left, a blocked app and bedtime on the virtual phone page', async () => {
    const { customer, agent, clock, advance } = await familyPhone(indiaTime(1, '18:00'));
    const screen = await startScreen(agent);
    try {
      const state = async () => (await (await fetch(`${screen.url}/state`)).json()) as PhoneView;
      const post = async (path: string, body: unknown) => (await fetch(`${screen.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
      expect((await state()).family).toBeNull();
      const version = await setRules(customer.id, RULES);
      await expect.poll(async () => (await state()).family?.version).toBe(version);
      expect((await state()).family).toMatchObject({ minutesLeft: 30, block: null, foreground: null, apps: expect.arrayContaining([{ app: GAME, key: 'game', opens: false }, { app: DIALLER, key: 'dialler', opens: true }]) });

      expect(await post('/open-app', { app: GAME })).toEqual({ allowed: false, reason: 'blocked', until: null });
      expect((await state()).family?.refused).toEqual({ app: GAME, reason: 'blocked', until: null });
      expect(await post('/open-app', { app: VIDEO })).toMatchObject({ allowed: true });
      advance(10 * MIN);
      expect((await state()).family).toMatchObject({ foreground: VIDEO, foregroundCounts: true, minutesLeft: 20, refused: null });
      await post('/close-app', {});

      clock.now = indiaTime(1, '21:45');
      agent.tick();
      const view = await state();
      expect(view.family?.block).toEqual({ reason: 'downtime', until: '07:00 AM' });
      expect(view.family?.apps.filter((a) => a.opens).map((a) => a.app).sort()).toEqual([DIALLER, STUDY].sort());
      const page = await (await fetch(screen.url)).text();
      expect(page).toContain('data-testid="family-block"');
    } finally {
      await screen.close();
    }
  });
});
