import { describe, expect, it } from 'vitest';
import { isValidLocalMobile, isValidMobile, maskMobile, withCountryPrefix } from './mobile.ts';

describe('mobile numbers', () => {
  it('prepends +91 to the entered number', () => {
    expect(withCountryPrefix('9876543210')).toBe('+919876543210');
    expect(withCountryPrefix('98765 43210')).toBe('+919876543210');
  });
  it('accepts ten digits starting 6-9 only', () => {
    expect(isValidLocalMobile('9876543210')).toBe(true);
    expect(isValidLocalMobile('5876543210')).toBe(false);
    expect(isValidLocalMobile('987654321')).toBe(false);
    expect(isValidMobile('+919876543210')).toBe(true);
    expect(isValidMobile('+9198765432101')).toBe(false);
    expect(isValidMobile('9876543210')).toBe(false);
  });
  it('masks all but the last four digits', () => {
    expect(maskMobile('+919876543210')).toBe('+91******3210');
    expect(maskMobile('9876543210')).toBe('******3210');
    expect(maskMobile('12')).toBe('****');
  });
});
