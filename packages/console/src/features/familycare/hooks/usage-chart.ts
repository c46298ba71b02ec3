/** The phone's usage as the section's charts show it: screen time per day, and per app on one day. */
import type { FamilyUsage } from '@kisht/contract/familycare';

type UsageDay = FamilyUsage['days'][number];

/** Weekday keys (familycare.day.<key>), Sunday first as the rules' limits are. */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** The weekday (0 = Sunday) of a calendar date YYYY-MM-DD. */
export function weekdayOf(isoDate: string): number {
  return new Date(`${isoDate}T00:00:00Z`).getUTCDay();
}

/** Seconds as whole hours and minutes (seconds short of a minute are not counted, as the phone counts). */
export function durationParts(seconds: number): { hours: number; minutes: number } {
  const total = Math.floor(Math.max(0, seconds) / 60);
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}

/** Minutes as the charts write them, h:mm: short and the same in every language (90 -> 1:30). */
export function clockDuration(minutes: number): string {
  const { hours, minutes: rest } = durationParts(minutes * 60);
  return `${hours}:${String(rest).padStart(2, '0')}`;
}

/** One column per day, oldest first, in minutes; `labelOf` names the day (e.g. "Thu 26"). */
export function dayPoints(days: readonly UsageDay[], labelOf: (day: string) => string): Array<{ label: string; value: number }> {
  return days.map((day) => ({ label: labelOf(day.day), value: day.total_seconds / 60 }));
}

/** Words that name the platform or the kind of build, not the app: the part before them says more. */
const GENERIC = new Set(['android', 'app', 'apps', 'mobile', 'client', 'lite', 'free', 'pro', 'main', 'phone']);
const LABEL_MAX = 16;

/** An app's name short enough for the bar chart's label column: the telling part of its package name. */
export function shortAppName(app: string): string {
  const parts = app.split('.').filter(Boolean);
  let name = parts[parts.length - 1] ?? app;
  for (let i = parts.length - 1; i > 0 && GENERIC.has(parts[i]!.toLowerCase()); i--) name = parts[i - 1]!;
  return name.length > LABEL_MAX ? `${name.slice(0, LABEL_MAX - 1)}…` : name;
}

/** The apps of one day, most used first (as the server sends them), in minutes; at most `max` bars. */
export function appBars(day: UsageDay | undefined, max = 8): Array<{ key: string; label: string; value: number }> {
  return (day?.apps ?? []).slice(0, max).map((usage) => ({ key: usage.app, label: shortAppName(usage.app), value: usage.seconds / 60 }));
}

/** The day to show per app: the chosen one while the period still has it, else today (the period's last day). */
export function shownDay(days: readonly UsageDay[], chosen: string | null): UsageDay | undefined {
  return days.find((day) => day.day === chosen) ?? days[days.length - 1];
}

/** Whether the phone has reported anything in the period. */
export function hasUsage(usage: Pick<FamilyUsage, 'days'>): boolean {
  return usage.days.some((day) => day.apps.length > 0);
}
