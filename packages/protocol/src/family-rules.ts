/**
 * Family care (protocol revision 5): checking a parent's rules and deciding, at a given moment, whether an app may
 * open. Pure (no I/O, no clock of its own), so the phone, the server and the console all read the rules alike.
 * Every time is India time (UTC+05:30, no daylight saving), taken from the UTC milliseconds the caller passes.
 */
import { ALWAYS_ALLOWED_APPS, FAMILY_LIMITS, type AppUsage, type FamilyRules } from './messages.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** India is UTC+05:30 all year. */
export const INDIA_OFFSET_MS = 330 * MINUTE_MS;

/** The India calendar date (YYYY-MM-DD) of a UTC timestamp. */
export function indiaDate(ms: number): string {
  return new Date(ms + INDIA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The India weekday of a UTC timestamp, 0 = Sunday (the index into `daily_limit_minutes`). */
export function indiaWeekday(ms: number): number {
  return new Date(ms + INDIA_OFFSET_MS).getUTCDay();
}

/** Whole minutes since India midnight (0-1439). */
export function indiaMinutes(ms: number): number {
  return Math.floor(msSinceIndiaMidnight(ms) / MINUTE_MS);
}

/** The UTC timestamp of the India midnight that began the day of `ms`. */
export function indiaMidnight(ms: number): number {
  return ms - msSinceIndiaMidnight(ms);
}

/** The UTC timestamp of the next India midnight after `ms` (when the day's limit starts afresh). */
export function nextIndiaMidnight(ms: number): number {
  return indiaMidnight(ms) + DAY_MS;
}

function msSinceIndiaMidnight(ms: number): number {
  return (((ms + INDIA_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS;
}

// ---- checking a rule set ----

/** Why a rule set was refused; `field` names the part, as `downtime[1].end`. */
export type FamilyRulesProblem =
  | 'not_an_object' | 'not_a_list' | 'wrong_length' | 'too_many' | 'not_whole_minutes' | 'out_of_range'
  | 'not_a_time' | 'not_an_app' | 'allowed_and_blocked' | 'not_an_iso_time';

export type FamilyRulesCheck = { ok: true; rules: FamilyRules } | { ok: false; field: string; problem: FamilyRulesProblem };

/** A package name as Android writes them: letters, digits and underscores in at least two dotted parts. */
const APP_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;
const CLOCK_TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
// A zone is required: without one Date.parse reads the time in whatever zone the reader's machine is in.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

class Refusal {
  constructor(readonly field: string, readonly problem: FamilyRulesProblem) {}
}

function list(value: unknown, field: string, max: number): unknown[] {
  if (!Array.isArray(value)) throw new Refusal(field, 'not_a_list');
  if (value.length > max) throw new Refusal(field, 'too_many');
  return value;
}

function apps(value: unknown, field: string): string[] {
  return list(value, field, FAMILY_LIMITS.apps).map((app, i) => {
    if (typeof app !== 'string' || app.length < 1 || app.length > FAMILY_LIMITS.appName || !APP_NAME.test(app)) throw new Refusal(`${field}[${i}]`, 'not_an_app');
    return app;
  });
}

/**
 * Checks a rule set against the bounds of docs/device-protocol.md and answers a clean copy (fields not in the
 * protocol are left out, so a newer sender's additions never reach storage unread), or the first fault found.
 */
export function validateFamilyRules(value: unknown): FamilyRulesCheck {
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal('rules', 'not_an_object');
    const given = value as Record<string, unknown>;

    const limits = list(given.daily_limit_minutes, 'daily_limit_minutes', 7);
    if (limits.length !== 7) throw new Refusal('daily_limit_minutes', 'wrong_length');
    const daily_limit_minutes = limits.map((minutes, i) => {
      if (minutes === null) return null;
      if (typeof minutes !== 'number' || !Number.isInteger(minutes)) throw new Refusal(`daily_limit_minutes[${i}]`, 'not_whole_minutes');
      if (minutes < 0 || minutes > 1440) throw new Refusal(`daily_limit_minutes[${i}]`, 'out_of_range');
      return minutes;
    });

    const downtime = list(given.downtime, 'downtime', FAMILY_LIMITS.downtimeWindows).map((window, i) => {
      if (typeof window !== 'object' || window === null || Array.isArray(window)) throw new Refusal(`downtime[${i}]`, 'not_an_object');
      const { start, end } = window as Record<string, unknown>;
      if (typeof start !== 'string' || !CLOCK_TIME.test(start)) throw new Refusal(`downtime[${i}].start`, 'not_a_time');
      if (typeof end !== 'string' || !CLOCK_TIME.test(end)) throw new Refusal(`downtime[${i}].end`, 'not_a_time');
      return { start, end };
    });

    const allowed_apps = apps(given.allowed_apps, 'allowed_apps');
    const blocked_apps = apps(given.blocked_apps, 'blocked_apps');
    const both = blocked_apps.findIndex((app) => allowed_apps.includes(app));
    if (both >= 0) throw new Refusal(`blocked_apps[${both}]`, 'allowed_and_blocked');

    const lock = given.lock_until;
    if (lock !== null && (typeof lock !== 'string' || !ISO_TIME.test(lock) || !Number.isFinite(Date.parse(lock)))) throw new Refusal('lock_until', 'not_an_iso_time');

    return { ok: true, rules: { daily_limit_minutes, downtime, allowed_apps, blocked_apps, lock_until: lock } };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, field: error.field, problem: error.problem };
    throw error;
  }
}

// ---- deciding ----

export type BlockReason = 'locked' | 'downtime' | 'limit';

/** What closes the phone to ordinary apps right now, and when it opens again (ms). */
export interface Block {
  reason: BlockReason;
  until: number;
}

export type AppVerdict =
  | { allowed: true; secondsLeft: number | null }
  | { allowed: false; reason: 'blocked' | BlockReason; until: number | null };

/** Whether `app` is let through whatever the time or the limit: the dialler and emergency, and the parent's allowed list. */
export function alwaysAllowed(rules: FamilyRules | null, app: string): boolean {
  return (ALWAYS_ALLOWED_APPS as readonly string[]).includes(app) || (rules?.allowed_apps.includes(app) ?? false);
}

/** Screen time, in seconds, from a day's usage: always-allowed apps (and the parent's allowed ones) do not count. */
export function screenSeconds(rules: FamilyRules | null, usage: readonly AppUsage[]): number {
  return usage.reduce((sum, u) => sum + (alwaysAllowed(rules, u.app) ? 0 : u.seconds), 0);
}

const clockMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The window holding the moment, as [start, end) in ms, if any: a window whose end is at or before its start runs past midnight. */
function windowAround(window: { start: string; end: string }, ms: number): [number, number] | null {
  const start = clockMinutes(window.start) * MINUTE_MS;
  let end = clockMinutes(window.end) * MINUTE_MS;
  if (end <= start) end += DAY_MS;
  const midnight = indiaMidnight(ms);
  // The window that began today, or the one that began yesterday and runs into today.
  for (const dayStart of [midnight, midnight - DAY_MS]) {
    if (ms >= dayStart + start && ms < dayStart + end) return [dayStart + start, dayStart + end];
  }
  return null;
}

/**
 * The end (ms) of the downtime the moment falls in, or null when it falls in none. Overlapping or touching
 * windows count as one: the answer is when the phone really opens again.
 */
export function inDowntime(rules: FamilyRules, nowMs: number): number | null {
  let end: number | null = null;
  let at = nowMs;
  // Each step moves to a later window's end. Windows covering the whole day (a start equal to its end) would chain
  // for ever: past a day ahead the phone stops looking and answers the end it has.
  while (end === null || end - nowMs <= DAY_MS) {
    const ends = rules.downtime.map((w) => windowAround(w, at)?.[1]).filter((e): e is number => e !== undefined);
    if (ends.length === 0) break;
    end = Math.max(...ends);
    at = end;
  }
  return end;
}

/** The next moment after `nowMs` at which a downtime window begins, or null when there are no windows. */
export function nextDowntimeStart(rules: FamilyRules, nowMs: number): number | null {
  const midnight = indiaMidnight(nowMs);
  let next: number | null = null;
  for (const window of rules.downtime) {
    let start = midnight + clockMinutes(window.start) * MINUTE_MS;
    if (start <= nowMs) start += DAY_MS;
    if (next === null || start < next) next = start;
  }
  return next;
}

/** Today's limit in minutes (India weekday), or null when today has none. */
export function limitToday(rules: FamilyRules, nowMs: number): number | null {
  return rules.daily_limit_minutes[indiaWeekday(nowMs)] ?? null;
}

/** Seconds of screen time left today (never below 0), or null when today has no limit. */
export function secondsLeftToday(rules: FamilyRules, usedSecondsToday: number, nowMs: number): number | null {
  const limit = limitToday(rules, nowMs);
  if (limit === null) return null;
  return Math.max(0, limit * 60 - usedSecondsToday);
}

function lockEnd(rules: FamilyRules, nowMs: number): number | null {
  if (rules.lock_until === null) return null;
  const until = Date.parse(rules.lock_until);
  return Number.isFinite(until) && until > nowMs ? until : null;
}

/** What closes the phone to every app that is not always allowed right now (a lock, downtime, the limit), or null. */
export function currentBlock(rules: FamilyRules, usedSecondsToday: number, nowMs: number): Block | null {
  const locked = lockEnd(rules, nowMs);
  if (locked !== null) return { reason: 'locked', until: locked };
  const downtime = inDowntime(rules, nowMs);
  if (downtime !== null) return { reason: 'downtime', until: downtime };
  if (secondsLeftToday(rules, usedSecondsToday, nowMs) === 0) return { reason: 'limit', until: nextIndiaMidnight(nowMs) };
  return null;
}

/**
 * Whether `app` may be in the foreground now, in the protocol's order: always-allowed apps and the parent's allowed
 * list always; the blocked list never; then a lock, a downtime window and today's limit close everything else.
 * `usedSecondsToday` is today's screen time so far (see screenSeconds). `until` is when the app opens again, where
 * that is known; a blocked app has none.
 */
export function appVerdict(rules: FamilyRules, usedSecondsToday: number, app: string, nowMs: number): AppVerdict {
  if (alwaysAllowed(rules, app)) return { allowed: true, secondsLeft: null };
  if (rules.blocked_apps.includes(app)) return { allowed: false, reason: 'blocked', until: null };
  const block = currentBlock(rules, usedSecondsToday, nowMs);
  if (block) return { allowed: false, reason: block.reason, until: block.until };
  return { allowed: true, secondsLeft: secondsLeftToday(rules, usedSecondsToday, nowMs) };
}
