import { describe, expect, it } from 'vitest';
import { USAGE_REPORT_SECONDS, type FamilyRules } from '@kisht/protocol/messages';
import { accrue, dayUsage, familyCareView, familyClock, takeDueReports, USAGE_DAYS } from './family-care.ts';
import { initialApps } from './state.ts';

const india = (date: string, time: string) => Date.parse(`${date}T${time}:00+05:30`);
const MIN = 60_000;
// 2026-11-30 is a Monday.
const MONDAY = '2026-11-30';
const TUESDAY = '2026-12-01';

const rules: FamilyRules = {
  daily_limit_minutes: [60, 30, 30, 30, 30, 30, 60], downtime: [{ start: '21:30', end: '07:00' }],
  allowed_apps: ['org.khanacademy.android'], blocked_apps: ['com.example.game'], lock_until: null,
};

function openAt(app: string, at: number) {
  const apps = initialApps(at);
  apps.foreground = app;
  return apps;
}

describe('counting foreground time', () => {
  it('counts up to the limit and closes the app there, however far the clock jumps', () => {
    const apps = openAt('com.google.android.youtube', india(MONDAY, '18:00'));
    expect(accrue(apps, rules, india(MONDAY, '18:20'))).toBeNull();
    expect(dayUsage(apps, MONDAY)).toEqual([{ app: 'com.google.android.youtube', seconds: 1200 }]);
    const closed = accrue(apps, rules, india(MONDAY, '20:00'));
    expect(closed).toEqual({ allowed: false, reason: 'limit', until: india(TUESDAY, '00:00') });
    expect(apps.foreground).toBeNull();
    expect(apps.refused).toEqual({ app: 'com.google.android.youtube', verdict: closed });
    expect(dayUsage(apps, MONDAY)).toEqual([{ app: 'com.google.android.youtube', seconds: 1800 }]);
  });

  it('keeps counting, on the same day, when the clock is set back to win a new day', () => {
    const apps = openAt('com.google.android.youtube', india(TUESDAY, '10:00'));
    accrue(apps, rules, familyClock(apps, india(TUESDAY, '10:20')));
    // Set back to Monday morning: family time carries on from Tuesday 10:20, and the next ten minutes still count.
    expect(familyClock(apps, india(MONDAY, '09:00'))).toBe(india(TUESDAY, '10:20'));
    const closed = accrue(apps, rules, familyClock(apps, india(MONDAY, '09:15')));
    expect(closed).toMatchObject({ reason: 'limit' });
    expect(dayUsage(apps, TUESDAY)).toEqual([{ app: 'com.google.android.youtube', seconds: 1800 }]);
    expect(dayUsage(apps, MONDAY)).toEqual([]);
    expect(familyCareView(apps, { version: 1, rules }, familyClock(apps, india(MONDAY, '09:30'))).secondsLeft).toBe(0);
  });

  it('stops counting when bedtime starts', () => {
    const unlimited = { ...rules, daily_limit_minutes: [null, null, null, null, null, null, null] };
    const apps = openAt('com.google.android.youtube', india(MONDAY, '21:00'));
    expect(accrue(apps, unlimited, india(MONDAY, '23:00'))).toMatchObject({ reason: 'downtime', until: india(TUESDAY, '07:00') });
    expect(dayUsage(apps, MONDAY)).toEqual([{ app: 'com.google.android.youtube', seconds: 1800 }]);
  });

  it('splits an always-allowed app across midnight, without closing it or counting it as screen time', () => {
    const apps = openAt('com.android.dialer', india(MONDAY, '23:50'));
    expect(accrue(apps, rules, india(TUESDAY, '00:15'))).toBeNull();
    expect(apps.foreground).toBe('com.android.dialer');
    expect(dayUsage(apps, MONDAY)).toEqual([{ app: 'com.android.dialer', seconds: 600 }]);
    expect(dayUsage(apps, TUESDAY)).toEqual([{ app: 'com.android.dialer', seconds: 900 }]);
    expect(familyCareView(apps, { version: 1, rules }, india(TUESDAY, '00:15'))).toMatchObject({ screenSeconds: 0, secondsLeft: 1800, block: { reason: 'downtime' } });
  });

  it('counts nothing without a foreground app, and keeps only the last few days', () => {
    const apps = initialApps(india(MONDAY, '10:00'));
    expect(accrue(apps, rules, india(MONDAY, '11:00'))).toBeNull();
    expect(apps.usage).toEqual({});
    for (let d = 0; d < USAGE_DAYS + 3; d++) {
      const day = india(MONDAY, '10:00') + d * 86_400_000;
      apps.foreground = 'org.khanacademy.android';
      apps.countedTo = day;
      accrue(apps, rules, day + MIN);
    }
    expect(Object.keys(apps.usage)).toHaveLength(USAGE_DAYS);
  });
});

describe('usage reports', () => {
  it("are due at once, then not before USAGE_REPORT_SECONDS, only with new seconds, and the finished day once more after midnight", () => {
    const start = india(MONDAY, '18:00');
    const apps = openAt('com.google.android.youtube', start);
    accrue(apps, rules, start + MIN);
    expect(takeDueReports(apps, start + MIN)).toEqual([{ day: MONDAY, apps: [{ app: 'com.google.android.youtube', seconds: 60 }] }]);
    accrue(apps, rules, start + 2 * MIN);
    expect(takeDueReports(apps, start + 2 * MIN)).toEqual([]);
    expect(takeDueReports(apps, start + 2 * MIN, true)).toHaveLength(1);
    apps.foreground = null;
    const later = start + 2 * MIN + USAGE_REPORT_SECONDS * 1000;
    // Nothing new since the forced report: nothing to send, however long it has been.
    expect(takeDueReports(apps, later)).toEqual([]);
    // After midnight the finished day goes once more, even unchanged, and then never again.
    expect(takeDueReports(apps, india(TUESDAY, '00:01'))).toEqual([{ day: MONDAY, apps: [{ app: 'com.google.android.youtube', seconds: 120 }] }]);
    expect(takeDueReports(apps, india(TUESDAY, '00:20'))).toEqual([]);
  });
});
