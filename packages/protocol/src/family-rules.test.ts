import { describe, expect, it } from 'vitest';
import type { FamilyRules } from './messages.ts';
import {
  appVerdict, currentBlock, inDowntime, indiaDate, indiaMidnight, indiaMinutes, indiaWeekday, nextDowntimeStart, nextIndiaMidnight, screenSeconds,
  secondsLeftToday, validateFamilyRules,
} from './family-rules.ts';

/** A UTC timestamp for an India wall-clock time (India is UTC+05:30). */
const india = (date: string, time: string) => Date.parse(`${date}T${time}:00+05:30`);

const open: FamilyRules = { daily_limit_minutes: [null, null, null, null, null, null, null], downtime: [], allowed_apps: [], blocked_apps: [], lock_until: null };
const rules = (over: Partial<FamilyRules>): FamilyRules => ({ ...open, ...over });

// 2026-11-29 is a Sunday, 2026-11-30 a Monday.
const SUNDAY = '2026-11-29';
const MONDAY = '2026-11-30';

describe('India time', () => {
  it('reads the date, weekday and minutes in India, not in UTC', () => {
    // 20:00 UTC on Sunday is 01:30 on Monday in India.
    const ms = Date.UTC(2026, 10, 29, 20, 0);
    expect(indiaDate(ms)).toBe(MONDAY);
    expect(indiaWeekday(ms)).toBe(1);
    expect(indiaMinutes(ms)).toBe(90);
    expect(indiaMidnight(ms)).toBe(india(MONDAY, '00:00'));
    expect(nextIndiaMidnight(ms)).toBe(india('2026-12-01', '00:00'));
  });

  it('starts the day at India midnight exactly, Sunday = 0', () => {
    expect(indiaWeekday(india(SUNDAY, '00:00'))).toBe(0);
    expect(indiaWeekday(india(SUNDAY, '00:00') - 1)).toBe(6);
    expect(indiaDate(india(SUNDAY, '00:00') - 1)).toBe('2026-11-28');
    expect(indiaMinutes(india(SUNDAY, '23:59'))).toBe(1439);
    expect(nextIndiaMidnight(india(SUNDAY, '00:00'))).toBe(india(MONDAY, '00:00'));
  });
});

describe('checking a rule set', () => {
  const good = {
    daily_limit_minutes: [120, 60, 60, 60, 60, 60, null], downtime: [{ start: '21:30', end: '07:00' }],
    allowed_apps: ['org.khanacademy.android'], blocked_apps: ['com.example.game'], lock_until: null,
  };

  it("takes the doc's example and leaves out fields the protocol does not have", () => {
    expect(validateFamilyRules(good)).toEqual({ ok: true, rules: good });
    expect(validateFamilyRules({ ...good, extra: 1, lock_until: '2026-11-26T18:00:00.000Z' })).toEqual({ ok: true, rules: { ...good, lock_until: '2026-11-26T18:00:00.000Z' } });
    expect(validateFamilyRules({ ...good, lock_until: '2026-11-26T23:30+05:30', daily_limit_minutes: [0, 1440, 0, 0, 0, 0, 0] }).ok).toBe(true);
  });

  it.each([
    [null, 'rules', 'not_an_object'],
    [[], 'rules', 'not_an_object'],
    [{ ...good, daily_limit_minutes: undefined }, 'daily_limit_minutes', 'not_a_list'],
    [{ ...good, daily_limit_minutes: [60, 60, 60, 60, 60, 60] }, 'daily_limit_minutes', 'wrong_length'],
    [{ ...good, daily_limit_minutes: [60, 60, 60, 60, 60, 60, 60, 60] }, 'daily_limit_minutes', 'too_many'],
    [{ ...good, daily_limit_minutes: [60, 60, 1441, 60, 60, 60, 60] }, 'daily_limit_minutes[2]', 'out_of_range'],
    [{ ...good, daily_limit_minutes: [60, -1, 60, 60, 60, 60, 60] }, 'daily_limit_minutes[1]', 'out_of_range'],
    [{ ...good, daily_limit_minutes: [60, 60, 60, 30.5, 60, 60, 60] }, 'daily_limit_minutes[3]', 'not_whole_minutes'],
    [{ ...good, daily_limit_minutes: [60, 60, 60, '60', 60, 60, 60] }, 'daily_limit_minutes[3]', 'not_whole_minutes'],
    [{ ...good, downtime: {} }, 'downtime', 'not_a_list'],
    [{ ...good, downtime: Array(5).fill({ start: '01:00', end: '02:00' }) }, 'downtime', 'too_many'],
    [{ ...good, downtime: [{ start: '24:00', end: '07:00' }] }, 'downtime[0].start', 'not_a_time'],
    [{ ...good, downtime: [{ start: '21:30', end: '7:00' }] }, 'downtime[0].end', 'not_a_time'],
    [{ ...good, downtime: [{ start: '21:30', end: '07:60' }] }, 'downtime[0].end', 'not_a_time'],
    [{ ...good, downtime: [null] }, 'downtime[0]', 'not_an_object'],
    [{ ...good, allowed_apps: ['not a package'] }, 'allowed_apps[0]', 'not_an_app'],
    [{ ...good, allowed_apps: ['single'] }, 'allowed_apps[0]', 'not_an_app'],
    [{ ...good, blocked_apps: ['com.example.game', `com.${'a'.repeat(147)}`] }, 'blocked_apps[1]', 'not_an_app'],
    [{ ...good, blocked_apps: Array.from({ length: 51 }, (_, i) => `com.example.app${i}`) }, 'blocked_apps', 'too_many'],
    [{ ...good, blocked_apps: ['com.example.game', 'org.khanacademy.android'] }, 'blocked_apps[1]', 'allowed_and_blocked'],
    [{ ...good, lock_until: 'tomorrow' }, 'lock_until', 'not_an_iso_time'],
    [{ ...good, lock_until: '2026-11-26T18:00:00' }, 'lock_until', 'not_an_iso_time'],
    [{ ...good, lock_until: 1764180000000 }, 'lock_until', 'not_an_iso_time'],
    [{ ...good, lock_until: undefined }, 'lock_until', 'not_an_iso_time'],
  ])('refuses %j at %s (%s)', (value, field, problem) => {
    expect(validateFamilyRules(value)).toEqual({ ok: false, field, problem });
  });

  it('takes 50 apps of 150 characters each', () => {
    const long = (i: number) => `com.${String(i).padStart(2, '0')}${'a'.repeat(144)}`;
    const many = Array.from({ length: 50 }, (_, i) => long(i));
    expect(long(0)).toHaveLength(150);
    expect(validateFamilyRules({ ...good, allowed_apps: many, blocked_apps: [] }).ok).toBe(true);
  });
});

describe('downtime', () => {
  const bedtime = rules({ downtime: [{ start: '21:30', end: '07:00' }] });

  it('runs past midnight when its end is before its start', () => {
    expect(inDowntime(bedtime, india(SUNDAY, '21:29'))).toBeNull();
    expect(inDowntime(bedtime, india(SUNDAY, '21:30'))).toBe(india(MONDAY, '07:00'));
    expect(inDowntime(bedtime, india(SUNDAY, '23:00'))).toBe(india(MONDAY, '07:00'));
    expect(inDowntime(bedtime, india(MONDAY, '06:59'))).toBe(india(MONDAY, '07:00'));
    expect(inDowntime(bedtime, india(MONDAY, '07:00'))).toBeNull();
    expect(inDowntime(bedtime, india(MONDAY, '12:00'))).toBeNull();
  });

  it('ends a window within the day where it says, and joins windows that meet or overlap', () => {
    const afternoon = rules({ downtime: [{ start: '13:00', end: '14:00' }] });
    expect(inDowntime(afternoon, india(SUNDAY, '12:59'))).toBeNull();
    expect(inDowntime(afternoon, india(SUNDAY, '13:30'))).toBe(india(SUNDAY, '14:00'));
    expect(inDowntime(afternoon, india(SUNDAY, '14:00'))).toBeNull();
    const chained = rules({ downtime: [{ start: '21:00', end: '22:00' }, { start: '22:00', end: '23:00' }, { start: '22:30', end: '06:00' }] });
    expect(inDowntime(chained, india(SUNDAY, '21:15'))).toBe(india(MONDAY, '06:00'));
  });

  it('keeps a window whose start equals its end closed all day', () => {
    const always = rules({ downtime: [{ start: '08:00', end: '08:00' }] });
    for (const time of ['00:00', '07:59', '08:00', '23:59']) expect(inDowntime(always, india(SUNDAY, time))).toBeGreaterThan(india(SUNDAY, time));
  });

  it('knows when the next window begins', () => {
    expect(nextDowntimeStart(bedtime, india(SUNDAY, '20:00'))).toBe(india(SUNDAY, '21:30'));
    expect(nextDowntimeStart(bedtime, india(SUNDAY, '21:30'))).toBe(india(MONDAY, '21:30'));
    expect(nextDowntimeStart(open, india(SUNDAY, '20:00'))).toBeNull();
  });
});

describe('the daily limit', () => {
  // Sunday first: two hours on Sunday, 30 minutes on Monday, none on Saturday.
  const limited = rules({ daily_limit_minutes: [120, 30, 30, 30, 30, 30, null] });

  it('reads the India weekday, Sunday first', () => {
    expect(secondsLeftToday(limited, 0, india(SUNDAY, '10:00'))).toBe(7200);
    expect(secondsLeftToday(limited, 0, india(MONDAY, '10:00'))).toBe(1800);
    expect(secondsLeftToday(limited, 0, india('2026-11-28', '10:00'))).toBeNull();
    // 23:00 UTC on Sunday is already Monday in India.
    expect(secondsLeftToday(limited, 0, Date.UTC(2026, 10, 29, 23, 0))).toBe(1800);
  });

  it('closes at the limit exactly, until the next India midnight', () => {
    const at = india(MONDAY, '18:00');
    expect(appVerdict(limited, 1799, 'com.example.game', at)).toEqual({ allowed: true, secondsLeft: 1 });
    expect(appVerdict(limited, 1800, 'com.example.game', at)).toEqual({ allowed: false, reason: 'limit', until: india('2026-12-01', '00:00') });
    expect(secondsLeftToday(limited, 5000, at)).toBe(0);
  });

  it('with a limit of 0 lets only the always-allowed apps through', () => {
    const none = rules({ daily_limit_minutes: [0, 0, 0, 0, 0, 0, 0], allowed_apps: ['org.khanacademy.android'] });
    const at = india(SUNDAY, '10:00');
    expect(appVerdict(none, 0, 'com.example.video', at)).toMatchObject({ allowed: false, reason: 'limit' });
    expect(appVerdict(none, 0, 'com.android.dialer', at)).toEqual({ allowed: true, secondsLeft: null });
    expect(appVerdict(none, 0, 'org.khanacademy.android', at)).toEqual({ allowed: true, secondsLeft: null });
  });

  it('counts screen time without the always-allowed apps', () => {
    const r = rules({ allowed_apps: ['org.khanacademy.android'] });
    expect(screenSeconds(r, [{ app: 'com.example.game', seconds: 600 }, { app: 'com.android.dialer', seconds: 300 }, { app: 'org.khanacademy.android', seconds: 900 }, { app: 'com.example.video', seconds: 60 }])).toBe(660);
  });
});

describe("an app's verdict", () => {
  const family = rules({
    daily_limit_minutes: [60, 60, 60, 60, 60, 60, 60], downtime: [{ start: '21:30', end: '07:00' }],
    allowed_apps: ['org.khanacademy.android'], blocked_apps: ['com.example.game'],
  });
  const evening = india(SUNDAY, '19:00');

  it('lets the dialler and allowed apps through always, and never a blocked app', () => {
    const night = india(SUNDAY, '23:00');
    const locked = { ...family, lock_until: new Date(night + 3_600_000).toISOString() };
    for (const app of ['com.android.dialer', 'com.google.android.dialer', 'com.android.phone', 'com.android.emergency', 'org.khanacademy.android']) {
      expect(appVerdict(family, 99_999, app, night)).toEqual({ allowed: true, secondsLeft: null });
      expect(appVerdict(locked, 99_999, app, night)).toEqual({ allowed: true, secondsLeft: null });
    }
    expect(appVerdict(family, 0, 'com.example.game', evening)).toEqual({ allowed: false, reason: 'blocked', until: null });
  });

  it('closes other apps while locked, then in downtime, then at the limit, saying until when', () => {
    expect(appVerdict(family, 600, 'com.example.video', evening)).toEqual({ allowed: true, secondsLeft: 3000 });
    const lockedUntil = india(SUNDAY, '22:00');
    const locked = { ...family, lock_until: new Date(lockedUntil).toISOString() };
    expect(appVerdict(locked, 600, 'com.example.video', evening)).toEqual({ allowed: false, reason: 'locked', until: lockedUntil });
    // The lock is over, but it is bedtime now.
    expect(appVerdict(locked, 600, 'com.example.video', india(SUNDAY, '22:00'))).toEqual({ allowed: false, reason: 'downtime', until: india(MONDAY, '07:00') });
    expect(appVerdict(family, 3600, 'com.example.video', evening)).toEqual({ allowed: false, reason: 'limit', until: india(MONDAY, '00:00') });
    expect(currentBlock(family, 3600, india(SUNDAY, '23:00'))).toEqual({ reason: 'downtime', until: india(MONDAY, '07:00') });
    expect(currentBlock(family, 0, evening)).toBeNull();
  });

  it('ignores a lock_until in the past', () => {
    const past = { ...family, lock_until: new Date(evening - 1).toISOString() };
    expect(appVerdict(past, 0, 'com.example.video', evening)).toEqual({ allowed: true, secondsLeft: 3600 });
    const now = { ...family, lock_until: new Date(evening).toISOString() };
    expect(appVerdict(now, 0, 'com.example.video', evening)).toEqual({ allowed: true, secondsLeft: 3600 });
  });

  it('has no limit to tell on a day without one', () => {
    expect(appVerdict(open, 99_999, 'com.example.video', evening)).toEqual({ allowed: true, secondsLeft: null });
  });
});
