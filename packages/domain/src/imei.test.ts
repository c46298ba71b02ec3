import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidImei, luhnCheckDigit, withImeiCheckDigit } from './imei.ts';

describe('IMEI', () => {
  it('accepts real-format IMEIs with a good check digit', () => {
    // 49015420323751 is the body of the IMEI used in the GSMA's published example, check digit 8.
    expect(luhnCheckDigit('49015420323751')).toBe(8);
    expect(isValidImei('490154203237518')).toBe(true);
    expect(isValidImei('356938035643809')).toBe(true);
  });

  it('refuses a wrong check digit, wrong length and non-digits', () => {
    expect(isValidImei('490154203237519')).toBe(false);
    expect(isValidImei('49015420323751')).toBe(false);
    expect(isValidImei('4901542032375180')).toBe(false);
    expect(isValidImei('49015420323751a')).toBe(false);
  });

  it('catches every single-digit typo', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{14}$/), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 1, max: 9 }), (body, pos, delta) => {
        const imei = withImeiCheckDigit(body);
        expect(isValidImei(imei)).toBe(true);
        const typo = imei.slice(0, pos) + String((Number(imei[pos]) + delta) % 10) + imei.slice(pos + 1);
        expect(isValidImei(typo)).toBe(false);
      }),
    );
  });
});
