import { describe, expect, it } from 'vitest';
import type { FamilyRules } from '@kisht/contract/familycare';
import { draftOf, errorsFromServer, lockUntil, nextIndiaTime, parseMinutes, rulesOf, rulesState, validateRules, type RulesDraft } from './rules-form.ts';

// 26-11-2026 20:00 in India (14:30 UTC), a Thursday.
const NOW = Date.parse('2026-11-26T14:30:00.000Z');

const saved: FamilyRules = {
  daily_limit_minutes: [120, 60, 60, 60, 60, 60, null],
  downtime: [{ start: '21:30', end: '07:00' }],
  allowed_apps: ['org.khanacademy.android'],
  blocked_apps: ['com.example.game'],
  lock_until: null,
};

const empty: RulesDraft = { limits: ['', '', '', '', '', '', ''], downtime: [], allowed: '', blocked: '', lock: 'none' };

describe('family-care rules form', () => {
  it('starts from the saved rules, or from none', () => {
    expect(draftOf({ rules: saved }, NOW)).toEqual({
      limits: ['120', '60', '60', '60', '60', '60', ''], downtime: [{ start: '21:30', end: '07:00' }], allowed: 'org.khanacademy.android', blocked: 'com.example.game', lock: 'none',
    });
    expect(draftOf({ rules: null }, NOW)).toEqual(empty);
  });

  it('keeps a lock that is still ahead, and reads one that is over as none', () => {
    expect(draftOf({ rules: { ...saved, lock_until: '2026-11-26T15:00:00.000Z' } }, NOW).lock).toBe('keep');
    expect(draftOf({ rules: { ...saved, lock_until: '2026-11-26T14:00:00.000Z' } }, NOW).lock).toBe('none');
  });

  it('reads minutes, or hours and minutes, up to a whole day', () => {
    expect(parseMinutes(' 90 ')).toBe(90);
    expect(parseMinutes('0')).toBe(0);
    expect(parseMinutes('1:30')).toBe(90);
    expect(parseMinutes('24:00')).toBe(1440);
    expect(parseMinutes('1441')).toBeNull();
    expect(parseMinutes('1:75')).toBeNull();
    expect(parseMinutes('-5')).toBeNull();
    expect(parseMinutes('1.5')).toBeNull();
    expect(parseMinutes('')).toBeNull();
  });

  it('turns the draft into the rules the phone takes: empty days without a limit, app lists each name once', () => {
    const draft: RulesDraft = {
      limits: ['120', '30', '', '1:00', '', '', '45'], downtime: [{ start: '21:30', end: '06:30' }],
      allowed: 'org.khanacademy.android\n\n  org.khanacademy.android ', blocked: 'com.example.game, com.google.android.youtube', lock: 'none',
    };
    expect(rulesOf(draft, NOW, null)).toEqual({
      daily_limit_minutes: [120, 30, null, 60, null, null, 45], downtime: [{ start: '21:30', end: '06:30' }],
      allowed_apps: ['org.khanacademy.android'], blocked_apps: ['com.example.game', 'com.google.android.youtube'], lock_until: null,
    });
    // The round trip gives the same rules back.
    expect(rulesOf(draftOf({ rules: saved }, NOW), NOW, saved)).toEqual(saved);
  });

  it('locks for a period from now, until 7 in the morning (India), keeps a saved lock ahead, or lifts it', () => {
    expect(lockUntil('m30', NOW, null)).toBe('2026-11-26T15:00:00.000Z');
    expect(lockUntil('h1', NOW, null)).toBe('2026-11-26T15:30:00.000Z');
    expect(lockUntil('h2', NOW, null)).toBe('2026-11-26T16:30:00.000Z');
    // 07:00 in India is 01:30 UTC: tomorrow's, since this evening is past today's.
    expect(lockUntil('morning', NOW, null)).toBe('2026-11-27T01:30:00.000Z');
    expect(lockUntil('keep', NOW, '2026-11-26T18:00:00.000Z')).toBe('2026-11-26T18:00:00.000Z');
    expect(lockUntil('keep', NOW, '2026-11-26T12:00:00.000Z')).toBeNull();
    expect(lockUntil('none', NOW, '2026-11-26T18:00:00.000Z')).toBeNull();
  });

  it('finds the next India time after now: later today, or tomorrow', () => {
    // 01:00 in India (19:30 UTC the day before): 07:00 is later the same India day.
    expect(new Date(nextIndiaTime('07:00', Date.parse('2026-11-25T19:30:00.000Z'))).toISOString()).toBe('2026-11-26T01:30:00.000Z');
    expect(new Date(nextIndiaTime('07:00', Date.parse('2026-11-26T01:30:00.000Z'))).toISOString()).toBe('2026-11-27T01:30:00.000Z');
  });

  it('puts each problem on its field', () => {
    expect(validateRules(empty)).toEqual({});
    expect(validateRules({ ...empty, limits: ['abc', '', '', '', '', '', '2000'] })).toEqual({
      'limit.0': { key: 'familycare.rules.limitInvalid' }, 'limit.6': { key: 'familycare.rules.limitInvalid' },
    });
    expect(validateRules({ ...empty, downtime: [{ start: '21:30', end: '07:00' }, { start: '', end: '07:00' }] })).toEqual({ 'downtime.1': { key: 'familycare.rules.windowTimes' } });
    expect(validateRules({ ...empty, allowed: 'org.khanacademy.android\nWhatsApp' })).toEqual({ allowed: { key: 'familycare.rules.appInvalid', values: { app: 'WhatsApp' } } });
    expect(validateRules({ ...empty, allowed: 'com.example.game', blocked: 'com.example.game' })).toEqual({ blocked: { key: 'familycare.rules.appBoth', values: { app: 'com.example.game' } } });
    expect(validateRules({ ...empty, blocked: 'com.android.dialer' })).toEqual({ blocked: { key: 'familycare.rules.cannotBlock', values: { app: 'com.android.dialer' } } });
    const many = Array.from({ length: 51 }, (_, i) => `com.example.app${i}`).join('\n');
    expect(validateRules({ ...empty, blocked: many })).toEqual({ blocked: { key: 'familycare.rules.tooManyApps', values: { max: '50' } } });
    expect(validateRules({ ...empty, blocked: `com.${'x'.repeat(150)}` }).blocked).toMatchObject({ key: 'familycare.rules.appInvalid' });
  });

  it("places the server's field errors on the form's fields, and the rest on the form", () => {
    expect(errorsFromServer([
      { field: 'rules.daily_limit_minutes.3', message: 'must be <= 1440' },
      { field: 'rules.downtime.1.start', message: 'is invalid' },
      { field: 'rules.blocked_apps', message: 'com.example.game is both allowed and blocked' },
      { field: 'rules.allowed_apps.0', message: 'is invalid' },
      { field: 'rules.lock_until', message: 'Choose a time in the future.' },
      { field: 'customer_id', message: 'is invalid' },
    ])).toEqual({
      'limit.3': { text: 'must be <= 1440' }, 'downtime.1': { text: 'is invalid' }, blocked: { text: 'com.example.game is both allowed and blocked' },
      allowed: { text: 'is invalid' }, lock: { text: 'Choose a time in the future.' }, form: { text: 'customer_id: is invalid' },
    });
  });

  it('says whether the phone keeps the latest rules', () => {
    expect(rulesState({ version: 0, applied_version: null })).toBe('none');
    expect(rulesState({ version: 3, applied_version: null })).toBe('waiting');
    expect(rulesState({ version: 3, applied_version: 2 })).toBe('waiting');
    expect(rulesState({ version: 3, applied_version: 3 })).toBe('applied');
  });
});
