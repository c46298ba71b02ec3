/**
 * The phone's side of family care (revision 5): counting each app's foreground time per India day under the
 * parent's rules, closing the foreground app when the rules turn against it, and deciding which usage reports
 * are due. Works on the agent's AppsState in place; the agent owns the clock, the saving and the sending.
 */
import { FAMILY_LIMITS, USAGE_REPORT_SECONDS, type AppUsage, type FamilyRules } from '@kisht/protocol/messages';
import {
  alwaysAllowed, appVerdict, currentBlock, indiaDate, limitToday, nextDowntimeStart, nextIndiaMidnight, type AppVerdict, type Block,
} from '@kisht/protocol/family-rules';
import type { AppsState } from './state.ts';

/** India days of usage the phone keeps: enough for today, the day just finished and a few offline days before it. */
export const USAGE_DAYS = 7;

/** What the phone shows of family care: the rules, what is left today, what closes the phone, what is open. */
export interface FamilyCareView {
  version: number;
  rules: FamilyRules;
  /** Today's India date. */
  day: string;
  /** Today's limit, or null when today has none. */
  limitMinutes: number | null;
  /** Screen time used today (seconds): the time of apps that are not always allowed. */
  screenSeconds: number;
  /** Screen time left today (whole seconds), or null when today has no limit. */
  secondsLeft: number | null;
  /** A lock, downtime or the used-up limit closing every app but the always-allowed ones, and until when (ms). */
  block: Block | null;
  foreground: string | null;
  /** The app the rules last turned away or closed, and why. */
  refused: AppsState['refused'];
  /** Today's usage per app, most used first. */
  usage: AppUsage[];
}

/** A day's usage in whole seconds, most used first, as a report carries it (at most FAMILY_LIMITS.usageApps apps). */
export function dayUsage(apps: AppsState, day: string): AppUsage[] {
  return Object.entries(apps.usage[day] ?? {})
    .map(([app, ms]) => ({ app, seconds: Math.floor(ms / 1000) }))
    .filter((u) => u.seconds > 0)
    .sort((a, b) => b.seconds - a.seconds || a.app.localeCompare(b.app))
    .slice(0, FAMILY_LIMITS.usageApps);
}

/**
 * Family time: the phone's clock, never running backwards. A clock set back (by hand, or a child after another day's
 * screen time) is taken up again from the latest moment family time had reached, so the time since still counts
 * and the day does not start again. Call it with the phone's clock wherever family care reads the time.
 */
export function familyClock(apps: AppsState, now: number): number {
  const time = now + (apps.clockOffset ?? 0);
  if (time >= apps.countedTo) return time;
  apps.clockOffset = (apps.clockOffset ?? 0) + (apps.countedTo - time);
  return apps.countedTo;
}

/** Screen time of a day in ms: every app's foreground time but the always-allowed ones'. */
function screenMs(apps: AppsState, rules: FamilyRules | null, day: string): number {
  return Object.entries(apps.usage[day] ?? {}).reduce((sum, [app, ms]) => sum + (alwaysAllowed(rules, app) ? 0 : ms), 0);
}

/** What `app` may do now under `rules` (no rules: anything). */
export function verdictNow(apps: AppsState, rules: FamilyRules | null, app: string, now: number): AppVerdict {
  if (!rules) return { allowed: true, secondsLeft: null };
  return appVerdict(rules, screenMs(apps, rules, indiaDate(now)) / 1000, app, now);
}

function addTime(apps: AppsState, day: string, app: string, ms: number): void {
  if (ms <= 0) return;
  const today = (apps.usage[day] ??= {});
  today[app] = (today[app] ?? 0) + ms;
  const days = Object.keys(apps.usage).sort();
  for (const old of days.slice(0, Math.max(0, days.length - USAGE_DAYS))) {
    delete apps.usage[old];
    delete apps.reported[old];
  }
}

/**
 * Counts the foreground app's time from `countedTo` up to `now`. The span is cut where the verdict can turn (the
 * limit reached, a downtime window starting, India midnight starting a new day and a new limit), so a clock that
 * jumps ahead counts only what the rules let through; the app is closed at the moment its verdict turned.
 * Returns the verdict that closed the app, if one did.
 */
export function accrue(apps: AppsState, rules: FamilyRules | null, now: number): Extract<AppVerdict, { allowed: false }> | null {
  const app = apps.foreground;
  let t = apps.countedTo;
  apps.countedTo = Math.max(t, now);
  if (app === null) return null;
  for (;;) {
    const verdict = verdictNow(apps, rules, app, t);
    if (!verdict.allowed) {
      apps.foreground = null;
      apps.refused = { app, verdict };
      return verdict;
    }
    if (t >= now) return null;
    let next = Math.min(now, nextIndiaMidnight(t));
    if (rules && !alwaysAllowed(rules, app)) {
      const downtime = nextDowntimeStart(rules, t);
      if (downtime !== null) next = Math.min(next, downtime);
      const limit = limitToday(rules, t);
      // Whole ms on both sides, so the limit is met exactly, never overshot by a rounding.
      if (limit !== null) next = Math.min(next, t + Math.max(0, limit * 60_000 - screenMs(apps, rules, indiaDate(t))));
    }
    addTime(apps, indiaDate(t), app, next - t);
    t = next;
  }
}

/** The family-care view at `now` (call accrue first for the foreground time up to now). */
export function familyCareView(apps: AppsState, family: { version: number; rules: FamilyRules }, now: number): FamilyCareView {
  const { rules } = family;
  const day = indiaDate(now);
  const used = screenMs(apps, rules, day) / 1000;
  const limit = limitToday(rules, now);
  return {
    version: family.version,
    rules,
    day,
    limitMinutes: limit,
    screenSeconds: Math.floor(used),
    secondsLeft: limit === null ? null : Math.max(0, Math.floor(limit * 60 - used)),
    block: currentBlock(rules, used, now),
    foreground: apps.foreground,
    refused: apps.refused,
    usage: dayUsage(apps, day),
  };
}

/**
 * The usage reports due now: today's when it has seconds not yet reported and the last report is
 * USAGE_REPORT_SECONDS old (or `force`, whenever today has usage), and each finished day once more after its
 * midnight. Marks each as reported: the caller sends them all.
 */
export function takeDueReports(apps: AppsState, now: number, force = false): Array<{ day: string; apps: AppUsage[] }> {
  const today = indiaDate(now);
  const due: Array<{ day: string; apps: AppUsage[] }> = [];
  for (const day of Object.keys(apps.usage).sort()) {
    if (day > today) continue;
    const usage = dayUsage(apps, day);
    if (usage.length === 0) continue;
    const last = apps.reported[day];
    const changed = !last || usage.some((u) => last.apps[u.app] !== u.seconds);
    const finished = day < today;
    const go = finished
      ? changed || !last.final
      : force || (changed && (apps.lastReportAt === null || now - apps.lastReportAt >= USAGE_REPORT_SECONDS * 1000));
    if (!go) continue;
    apps.reported[day] = { apps: Object.fromEntries(usage.map((u) => [u.app, u.seconds])), final: finished };
    due.push({ day, apps: usage });
  }
  if (due.length > 0) apps.lastReportAt = now;
  return due;
}
