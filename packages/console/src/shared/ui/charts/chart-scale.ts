/** The arithmetic behind the small SVG charts: a round axis maximum and the bars' boxes. */

/** The smallest 1, 2, 2.5 or 5 x 10^k at or above `value` (1 for nothing to show). */
export function niceCeiling(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const candidate = step * magnitude;
    // Rounding guards against 3 x 0.1 = 0.30000000000000004 style drift.
    if (candidate >= value - magnitude * 1e-9) return Number(candidate.toPrecision(12));
  }
  return 10 * magnitude;
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ColumnLayout {
  max: number;
  bars: Bar[];
}

/**
 * Vertical columns across `width`, growing up from the bottom of `height`. A value above zero is at
 * least 1 unit tall so a small day still shows; negative values (net reversals) draw as zero.
 */
export function layoutColumns(values: readonly number[], width: number, height: number, gap = 2): ColumnLayout {
  const max = niceCeiling(Math.max(0, ...values));
  const count = values.length;
  if (count === 0) return { max, bars: [] };
  const slot = width / count;
  const barWidth = Math.max(1, slot - gap);
  const bars = values.map((value, i) => {
    const clamped = Math.max(0, value);
    const h = clamped === 0 ? 0 : Math.max(1, (clamped / max) * height);
    return { x: i * slot + (slot - barWidth) / 2, y: height - h, width: barWidth, height: h };
  });
  return { max, bars };
}

/** Horizontal bar lengths across `width`, against the largest value (not rounded: labels carry the numbers). */
export function barLengths(values: readonly number[], width: number): number[] {
  const max = Math.max(0, ...values);
  if (max === 0) return values.map(() => 0);
  return values.map((value) => (value > 0 ? Math.max(2, (value / max) * width) : 0));
}
