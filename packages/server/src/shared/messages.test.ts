import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@kisht/contract/envelope';
import { SUCCESS_MESSAGES, VALIDATION_RULES, translate, languageOf } from './messages.ts';
import { AppError } from '../errors.ts';

describe('server messages', () => {
  it('has English words for every error code and success message', () => {
    for (const code of ERROR_CODES) expect(translate('en', `errors.${code}`, 'MISSING'), code).not.toBe('MISSING');
    for (const key of SUCCESS_MESSAGES) expect(translate('en', `messages.${key}`, 'MISSING'), key).not.toBe('MISSING');
    for (const rule of VALIDATION_RULES) expect(translate('en', `validation.${rule}`, 'MISSING'), rule).not.toBe('MISSING');
  });

  it('gives errors their English message and status', () => {
    const error = new AppError('SESSION_INVALID');
    expect(error.status).toBe(511);
    expect(error.message).toBe(translate('en', 'errors.SESSION_INVALID'));
    expect(new AppError('ROUTE_NOT_FOUND').message).toBe('No route matches URL');
  });

  it('reads the language from the i18next cookie only when it is one of the ten', () => {
    expect(languageOf('a=b; i18next=mr; c=d')).toBe('mr');
    expect(languageOf('i18next=hi')).toBe('en');
    expect(languageOf(undefined)).toBe('en');
  });
});

describe('field problems', () => {
  it('are worded in the language of the request, with placeholders filled', () => {
    expect(translate('en', 'validation.imei_invalid')).toBe('This IMEI is not valid. Check the 15 digits.');
    expect(translate('hn', 'validation.imei_invalid')).toMatch(/[\u0900-\u097F]/);
    expect(translate('en', 'dashboard.welcome', 'x', { name: 'Ravi' })).toBe('Welcome, Ravi');
  });
});
