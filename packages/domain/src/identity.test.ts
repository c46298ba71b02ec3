import { describe, expect, it } from 'vitest';
import { isValidIdNumber, maskIdNumber } from './identity.ts';

describe('identity numbers', () => {
  it('are masked but for the last four characters', () => {
    expect(maskIdNumber('2345 6789 0123')).toBe('XXXXXXXX0123');
    expect(maskIdNumber('ABCDE1234F')).toBe('XXXXXX234F');
    expect(maskIdNumber('123')).toBe('***');
    expect(maskIdNumber(null)).toBeNull();
  });
  it('are checked by type', () => {
    expect(isValidIdNumber('AADHAAR', '2345 6789 0123')).toBe(true);
    expect(isValidIdNumber('AADHAAR', '1345 6789 0123')).toBe(false);
    expect(isValidIdNumber('PAN', 'abcde1234f')).toBe(true);
    expect(isValidIdNumber('PAN', 'ABCD1234F')).toBe(false);
  });
});
