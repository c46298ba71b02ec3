import { describe, expect, it } from 'vitest';
import { appBars, clockDuration, dayPoints, durationParts, hasUsage, shortAppName, shownDay, weekdayOf } from './usage-chart.ts';

const days = [
  { day: '2026-11-25', total_seconds: 0, apps: [] },
  {
    day: '2026-11-26', total_seconds: 5430,
    apps: [{ app: 'com.example.game', seconds: 3600 }, { app: 'com.google.android.youtube', seconds: 1800 }, { app: 'com.android.dialer', seconds: 30 }],
  },
];

describe('usage charts', () => {
  it('counts whole minutes, written h:mm on the charts', () => {
    expect(durationParts(5430)).toEqual({ hours: 1, minutes: 30 });
    expect(durationParts(59)).toEqual({ hours: 0, minutes: 0 });
    expect(clockDuration(90.5)).toBe('1:30');
    expect(clockDuration(5)).toBe('0:05');
    expect(clockDuration(0)).toBe('0:00');
  });

  it('names the weekday of a date, Sunday first', () => {
    expect(weekdayOf('2026-11-29')).toBe(0);
    expect(weekdayOf('2026-11-26')).toBe(4);
  });

  it('makes one column a day, in minutes, oldest first', () => {
    expect(dayPoints(days, (day) => day.slice(8))).toEqual([{ label: '25', value: 0 }, { label: '26', value: 90.5 }]);
  });

  it("makes one bar an app for the chosen day, today's unless another day of the period is chosen", () => {
    expect(shownDay(days, null)?.day).toBe('2026-11-26');
    expect(shownDay(days, '2026-11-25')?.day).toBe('2026-11-25');
    expect(shownDay(days, '2026-10-01')?.day).toBe('2026-11-26');
    expect(appBars(shownDay(days, null))).toEqual([
      { key: 'com.example.game', label: 'game', value: 60 },
      { key: 'com.google.android.youtube', label: 'youtube', value: 30 },
      { key: 'com.android.dialer', label: 'dialer', value: 0.5 },
    ]);
    expect(appBars(days[0])).toEqual([]);
    expect(appBars(days[1], 1)).toHaveLength(1);
  });

  it("labels an app by the telling part of its package name, short enough for the chart", () => {
    expect(shortAppName('org.khanacademy.android')).toBe('khanacademy');
    expect(shortAppName('com.whatsapp')).toBe('whatsapp');
    expect(shortAppName('in.gov.uidai.mAadhaarPlus')).toBe('mAadhaarPlus');
    expect(shortAppName('com.example.averyveryverylongapplicationname')).toBe('averyveryverylo…');
    expect(shortAppName('com.example.averyveryverylongapplicationname')).toHaveLength(16);
  });

  it('tells a period with usage from one without', () => {
    expect(hasUsage({ days })).toBe(true);
    expect(hasUsage({ days: [days[0]!] })).toBe(false);
  });
});
