import { describe, expect, it } from 'vitest';
import { barLengths, layoutColumns, niceCeiling } from './chart-scale.ts';

describe('niceCeiling', () => {
  it('rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceCeiling(7)).toBe(10);
    expect(niceCeiling(10)).toBe(10);
    expect(niceCeiling(11)).toBe(20);
    expect(niceCeiling(21)).toBe(25);
    expect(niceCeiling(26)).toBe(50);
    expect(niceCeiling(51)).toBe(100);
    expect(niceCeiling(123_456)).toBe(200_000);
    expect(niceCeiling(0.3)).toBe(0.5);
  });

  it('gives 1 when there is nothing to scale', () => {
    expect(niceCeiling(0)).toBe(1);
    expect(niceCeiling(-5)).toBe(1);
    expect(niceCeiling(Number.NaN)).toBe(1);
  });
});

describe('layoutColumns', () => {
  it('spreads the columns over the width and scales them to the rounded maximum', () => {
    const { max, bars } = layoutColumns([0, 50, 100], 300, 100, 10);
    expect(max).toBe(100);
    expect(bars.map((b) => b.height)).toEqual([0, 50, 100]);
    expect(bars.map((b) => b.y)).toEqual([100, 50, 0]);
    expect(bars.map((b) => b.x)).toEqual([5, 105, 205]);
    expect(bars[0]!.width).toBe(90);
  });

  it('keeps a tiny value visible and draws negative values as zero', () => {
    const { bars } = layoutColumns([1, 10_000, -300], 30, 100);
    expect(bars[0]!.height).toBe(1);
    expect(bars[2]!.height).toBe(0);
  });

  it('handles an empty series', () => {
    expect(layoutColumns([], 100, 100)).toEqual({ max: 1, bars: [] });
  });
});

describe('barLengths', () => {
  it('scales against the largest value', () => {
    expect(barLengths([0, 5, 10], 200)).toEqual([0, 100, 200]);
    expect(barLengths([1, 1000], 100)).toEqual([2, 100]);
    expect(barLengths([0, 0], 100)).toEqual([0, 0]);
  });
});
