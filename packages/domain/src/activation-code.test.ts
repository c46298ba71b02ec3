import { describe, expect, it } from 'vitest';
import { formatActivationCode, newActivationCode, parseActivationCode, passesVerhoeff, verhoeffCheckDigit } from './activation-code.ts';

describe('activation codes', () => {
  it('computes the Verhoeff check digit of the published worked example', () => {
    // The scheme's textbook example: 236 gets 3, and 2363 passes.
    expect(verhoeffCheckDigit('236')).toBe(3);
    expect(passesVerhoeff('2363')).toBe(true);
    expect(passesVerhoeff('2364')).toBe(false);
  });

  it('refuses every single wrong digit and every swap of neighbouring digits', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 10;
    for (let n = 0; n < 50; n++) {
      const code = newActivationCode(random);
      expect(code).toMatch(/^[1-9]\d{15}$/);
      expect(parseActivationCode(code)).toBe(code);
      for (let i = 0; i < code.length; i++) {
        for (let d = 0; d <= 9; d++) {
          if (String(d) === code[i]) continue;
          expect(passesVerhoeff(code.slice(0, i) + d + code.slice(i + 1))).toBe(false);
        }
        if (i + 1 < code.length && code[i] !== code[i + 1]) {
          expect(passesVerhoeff(code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2))).toBe(false);
        }
      }
    }
  });

  it('reads a code typed with spaces or dashes, and shows it in groups of four', () => {
    const code = newActivationCode(() => 5);
    const shown = formatActivationCode(code);
    expect(shown).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
    expect(parseActivationCode(shown)).toBe(code);
    expect(parseActivationCode(shown.replaceAll(' ', '-'))).toBe(code);
    expect(parseActivationCode(code.slice(0, 15))).toBeNull();
    expect(parseActivationCode(`${code}0`)).toBeNull();
    expect(parseActivationCode('abcd efgh ijkl mnop')).toBeNull();
  });
});
