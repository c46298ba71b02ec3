import { describe, expect, it } from 'vitest';
import { bpsToPercentText, paiseToRupeesText, parsePercentToBps, parseRupeesToPaise } from './money-input.ts';

describe('parseRupeesToPaise', () => {
  it('reads whole and decimal rupees exactly', () => {
    expect(parseRupeesToPaise('12999')).toBe(1_299_900);
    expect(parseRupeesToPaise('12,999.5')).toBe(1_299_950);
    expect(parseRupeesToPaise('₹ 1,00,000.05')).toBe(10_000_005);
    expect(parseRupeesToPaise('0.29')).toBe(29);
    expect(parseRupeesToPaise('.5')).toBe(50);
    expect(parseRupeesToPaise('7.')).toBe(700);
    expect(parseRupeesToPaise('0')).toBe(0);
  });

  it('refuses empty, negative, three decimals and letters', () => {
    for (const bad of ['', ' ', '.', '-5', '1.234', 'abc', '12a', '1.2.3']) expect(parseRupeesToPaise(bad), bad).toBeNull();
  });
});

describe('parsePercentToBps', () => {
  it('turns percent a year into basis points', () => {
    expect(parsePercentToBps('14')).toBe(1400);
    expect(parsePercentToBps('14.5')).toBe(1450);
    expect(parsePercentToBps('14.25%')).toBe(1425);
    expect(parsePercentToBps('0')).toBe(0);
    expect(parsePercentToBps('')).toBeNull();
    expect(parsePercentToBps('1.125')).toBeNull();
  });
});

describe('back to text', () => {
  it('shows paise and basis points without needless zeros', () => {
    expect(paiseToRupeesText(1_299_900)).toBe('12999');
    expect(paiseToRupeesText(1_299_950)).toBe('12999.5');
    expect(paiseToRupeesText(5)).toBe('0.05');
    expect(bpsToPercentText(1425)).toBe('14.25');
    expect(parseRupeesToPaise(paiseToRupeesText(123_456))).toBe(123_456);
  });
});
