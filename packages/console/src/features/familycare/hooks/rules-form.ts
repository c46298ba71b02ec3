/**
 * The family-care rules form: its draft (what the retailer types for the parent), the checks, the rules it sends
 * (docs/device-protocol.md, "Family care") and the server's field errors placed back on its fields.
 */
import type { FamilyCare, FamilyRules } from '@kisht/contract/familycare';
import { ALWAYS_ALLOWED_APPS, FAMILY_LIMITS } from '@kisht/protocol/messages';
import { INDIA_OFFSET_MS, validateFamilyRules } from '@kisht/protocol/family-rules';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DAY_MINUTES = 1440;

/** How long to lock the phone from now; `keep` leaves a lock that is still ahead as it is. */
export const LOCK_CHOICES = ['none', 'keep', 'm30', 'h1', 'h2', 'morning'] as const;
export type LockChoice = (typeof LOCK_CHOICES)[number];
const LOCK_MINUTES: Partial<Record<LockChoice, number>> = { m30: 30, h1: 60, h2: 120 };
/** "Until the morning" ends at this India time. */
export const MORNING = '07:00';

export interface RulesDraft {
  /** Minutes a day as typed, Sunday first; '' is no limit. */
  limits: string[];
  downtime: { start: string; end: string }[];
  /** Package names, one a line (spaces and commas also part them). */
  allowed: string;
  blocked: string;
  lock: LockChoice;
}

/** A problem to show on a field: a translation key (the form's own check) or the server's text, already translated. */
export type RuleError = { key: string; values?: Record<string, string> } | { text: string };

/** Fields: limit.<0-6>, downtime.<n>, allowed, blocked, lock, and form (what fits no field). */
export type RuleErrors = Partial<Record<string, RuleError>>;

export const NO_LIMITS: readonly string[] = Array.from({ length: 7 }, () => '');
const NO_RULES: FamilyRules = { daily_limit_minutes: [null, null, null, null, null, null, null], downtime: [], allowed_apps: [], blocked_apps: [], lock_until: null };

/** The saved rules as the form starts from them; a lock already over reads as none. */
export function draftOf(familyCare: Pick<FamilyCare, 'rules'>, now: number): RulesDraft {
  const rules = familyCare.rules ?? NO_RULES;
  const lockAhead = rules.lock_until !== null && Date.parse(rules.lock_until) > now;
  return {
    limits: rules.daily_limit_minutes.map((minutes) => (minutes === null ? '' : String(minutes))),
    downtime: rules.downtime.map((window) => ({ ...window })),
    allowed: rules.allowed_apps.join('\n'),
    blocked: rules.blocked_apps.join('\n'),
    lock: lockAhead ? 'keep' : 'none',
  };
}

/** Minutes from what was typed: whole minutes ("90") or hours and minutes ("1:30"); null when it is neither. */
export function parseMinutes(text: string): number | null {
  const typed = text.trim();
  const hoursAndMinutes = /^(\d{1,2}):([0-5]\d)$/.exec(typed);
  const minutes = /^\d{1,4}$/.test(typed) ? Number(typed) : hoursAndMinutes ? Number(hoursAndMinutes[1]) * 60 + Number(hoursAndMinutes[2]) : null;
  return minutes !== null && minutes <= DAY_MINUTES ? minutes : null;
}

/** The package names in a box, in the order typed, each once. */
export function appsOf(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** When a lock chosen now ends (ISO), or null for none; `keep` answers the saved lock while it is still ahead. */
export function lockUntil(choice: LockChoice, now: number, saved: string | null): string | null {
  if (choice === 'none') return null;
  if (choice === 'keep') return saved !== null && Date.parse(saved) > now ? saved : null;
  const minutes = LOCK_MINUTES[choice];
  if (minutes !== undefined) return new Date(now + minutes * MINUTE_MS).toISOString();
  return new Date(nextIndiaTime(MORNING, now)).toISOString();
}

/** The next moment after `now` when India's clock reads `time` (HH:MM). */
export function nextIndiaTime(time: string, now: number): number {
  const midnight = now - ((((now + INDIA_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS);
  const at = midnight + (Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))) * MINUTE_MS;
  return at > now ? at : at + DAY_MS;
}

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The same package-name check as the phone's and the server's: the first name it refuses, if any. */
function firstBadApp(apps: string[]): string | null {
  const check = validateFamilyRules({ ...NO_RULES, allowed_apps: apps });
  if (check.ok) return null;
  const index = /\[(\d+)\]/.exec(check.field)?.[1];
  return index === undefined ? null : (apps[Number(index)] ?? null);
}

function appListError(apps: string[]): RuleError | null {
  if (apps.length > FAMILY_LIMITS.apps) return { key: 'familycare.rules.tooManyApps', values: { max: String(FAMILY_LIMITS.apps) } };
  const bad = firstBadApp(apps);
  return bad === null ? null : { key: 'familycare.rules.appInvalid', values: { app: bad } };
}

/** The form's own checks, by field; empty when the rules can be sent. */
export function validateRules(draft: RulesDraft): RuleErrors {
  const errors: RuleErrors = {};
  draft.limits.forEach((text, day) => {
    if (text.trim() !== '' && parseMinutes(text) === null) errors[`limit.${day}`] = { key: 'familycare.rules.limitInvalid' };
  });
  draft.downtime.forEach((window, i) => {
    if (!CLOCK.test(window.start) || !CLOCK.test(window.end)) errors[`downtime.${i}`] = { key: 'familycare.rules.windowTimes' };
  });
  const allowed = appsOf(draft.allowed);
  const blocked = appsOf(draft.blocked);
  const allowedError = appListError(allowed);
  if (allowedError) errors.allowed = allowedError;
  // The dialler and emergency open whatever the rules say: blocking them would only mislead the parent.
  const always = blocked.find((app) => (ALWAYS_ALLOWED_APPS as readonly string[]).includes(app));
  const both = blocked.find((app) => allowed.includes(app));
  const blockedError = appListError(blocked)
    ?? (always ? { key: 'familycare.rules.cannotBlock', values: { app: always } } : null)
    ?? (both ? { key: 'familycare.rules.appBoth', values: { app: both } } : null);
  if (blockedError) errors.blocked = blockedError;
  return errors;
}

/** The rules to send (check with validateRules first); a lock chosen now is counted from `now`. */
export function rulesOf(draft: RulesDraft, now: number, saved: FamilyRules | null): FamilyRules {
  return {
    daily_limit_minutes: draft.limits.map((text) => (text.trim() === '' ? null : parseMinutes(text))),
    downtime: draft.downtime.map((window) => ({ start: window.start, end: window.end })),
    allowed_apps: appsOf(draft.allowed),
    blocked_apps: appsOf(draft.blocked),
    lock_until: lockUntil(draft.lock, now, saved?.lock_until ?? null),
  };
}

/**
 * The server's VALIDATION_FAILED details on the form's fields: `rules.daily_limit_minutes.3` on Wednesday's limit,
 * `rules.downtime.1.start` on the second window, and so on; anything else on the form as a whole.
 */
export function errorsFromServer(details: readonly { field: string; message: string }[]): RuleErrors {
  const errors: RuleErrors = {};
  for (const { field, message } of details) {
    const path = field.replace(/^body\./, '').replace(/^rules\./, '').split('.');
    const [part, index] = path;
    const name =
      part === 'daily_limit_minutes' && index !== undefined ? `limit.${index}`
        : part === 'downtime' && index !== undefined ? `downtime.${index}`
          : part === 'allowed_apps' ? 'allowed'
            : part === 'blocked_apps' ? 'blocked'
              : part === 'lock_until' ? 'lock'
                : 'form';
    errors[name] ??= { text: name === 'form' ? `${field}: ${message}` : message };
  }
  return errors;
}

/** Where the phone is with the rules: none set yet, sent and waiting for it, or kept by it. */
export type RulesState = 'none' | 'waiting' | 'applied';

export function rulesState(familyCare: Pick<FamilyCare, 'version' | 'applied_version'>): RulesState {
  if (familyCare.version === 0) return 'none';
  return familyCare.applied_version !== null && familyCare.applied_version >= familyCare.version ? 'applied' : 'waiting';
}
