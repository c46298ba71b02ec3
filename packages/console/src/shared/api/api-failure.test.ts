import { describe, expect, it } from 'vitest';
import { describeFailure, isApiFailure, successMessage, type Translator } from './api-failure.ts';

const dictionary: Record<string, string> = {
  'errors.OTP_INVALID': 'OTP galat hai.',
  'errors.FETCH_ERROR': 'No connection.',
  'errors.TIMEOUT_ERROR': 'Too slow.',
  'errors.PARSING_ERROR': 'Unreadable.',
  'errors.SESSION_INVALID': 'Session ended.',
  'errors.generic': 'Something went wrong.',
  'auth.toast.otpSent': 'OTP bheja gaya.',
};
const tr: Translator = { exists: (key) => key in dictionary, t: (key) => dictionary[key] ?? key };

describe('describeFailure', () => {
  it('translates a known server code and keeps attempts and retry data', () => {
    const failure = describeFailure(
      { status: 400, data: { success: false, code: 'OTP_INVALID', message: 'The OTP is not correct.', attempts_left: 2, retry_after_seconds: 30 } },
      tr,
    );
    expect(failure).toEqual({ status: 400, code: 'OTP_INVALID', message: 'OTP galat hai.', attemptsLeft: 2, retryAfterSeconds: 30 });
  });

  it('falls back to the server message for a code without a translation', () => {
    const failure = describeFailure({ status: 400, data: { success: false, code: 'NEW_CODE', message: 'A new rule failed.' } }, tr);
    expect(failure.code).toBe('NEW_CODE');
    expect(failure.message).toBe('A new rule failed.');
  });

  it('says "Something went wrong." when there is neither a known code nor a message', () => {
    expect(describeFailure({ status: 500, data: null }, tr).message).toBe('Something went wrong.');
    expect(describeFailure({ status: 400, data: { success: false, message: '  ' } }, tr).message).toBe('Something went wrong.');
    expect(describeFailure({ status: 'CUSTOM_ERROR', error: '' }, tr).message).toBe('Something went wrong.');
  });

  it('maps transport failures to their own translated messages', () => {
    expect(describeFailure({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, tr)).toMatchObject({
      code: 'FETCH_ERROR',
      message: 'No connection.',
    });
    expect(describeFailure({ status: 'TIMEOUT_ERROR', error: 'AbortError' }, tr).message).toBe('Too slow.');
    expect(describeFailure({ status: 'PARSING_ERROR', originalStatus: 200, data: '<html>', error: 'SyntaxError' }, tr).message).toBe(
      'Unreadable.',
    );
  });

  it('recognises 511 as an invalid session even without a body', () => {
    expect(describeFailure({ status: 511, data: undefined }, tr)).toMatchObject({ status: 511, code: 'SESSION_INVALID', message: 'Session ended.' });
  });

  it('keeps field details for validation errors', () => {
    const details = [{ field: 'mobile', message: 'must match pattern' }];
    expect(describeFailure({ status: 400, data: { success: false, code: 'VALIDATION_FAILED', message: 'bad', details } }, tr).details).toEqual(details);
  });
});

describe('successMessage', () => {
  it("shows the server's message, the endpoint's own words only when the server sent none, else nothing", () => {
    expect(successMessage("EMI alert queued for the customer's phone.", 'auth.toast.otpSent', tr)).toBe("EMI alert queued for the customer's phone.");
    expect(successMessage('OTP sent', 'auth.toast.unknown', tr)).toBe('OTP sent');
    expect(successMessage('OTP sent', undefined, tr)).toBe('OTP sent');
    expect(successMessage('', 'auth.toast.otpSent', tr)).toBe('OTP bheja gaya.');
    expect(successMessage('   ', 'auth.toast.otpSent', tr)).toBe('OTP bheja gaya.');
    expect(successMessage(undefined, 'auth.toast.otpSent', tr)).toBe('OTP bheja gaya.');
    expect(successMessage(42, 'auth.toast.unknown', tr)).toBeNull();
    expect(successMessage('', undefined, tr)).toBeNull();
    expect(successMessage(undefined, undefined, tr)).toBeNull();
  });
});

describe('isApiFailure', () => {
  it('recognises the failure shape only', () => {
    expect(isApiFailure({ status: 400, code: 'X', message: 'y' })).toBe(true);
    expect(isApiFailure(new Error('x'))).toBe(false);
    expect(isApiFailure(null)).toBe(false);
  });
});
