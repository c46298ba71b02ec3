/**
 * What the retailer types into amount and rate fields, turned into the API's integers: rupees to paise,
 * percent a year to basis points. String arithmetic only, so "0.29" is 29 paise and never 28.999...
 */

/** "12,999", "12999.5", "₹ 12,999.50" -> paise; null for empty, negative or more than two decimals. */
export function parseRupeesToPaise(text: string): number | null {
  return parseDecimal(text.replace(/[₹,\s]/g, '').replace(/^rs\.?/i, ''), 100);
}

/** "14" -> 1400, "14.5" -> 1450, "14.25%" -> 1425 basis points; null for empty or bad input. */
export function parsePercentToBps(text: string): number | null {
  return parseDecimal(text.replace(/[%\s]/g, ''), 100);
}

/** Paise as the text an amount field shows: 1234550 -> "12345.5", 100 -> "1". */
export function paiseToRupeesText(paise: number): string {
  const rupees = Math.trunc(paise / 100);
  const rest = Math.abs(paise % 100);
  if (rest === 0) return String(rupees);
  return `${rupees}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}

/** Basis points as percent text: 1450 -> "14.5". */
export function bpsToPercentText(bps: number): string {
  return paiseToRupeesText(bps);
}

/** A non-negative decimal with at most two places, times `scale` (100), as an exact integer. */
function parseDecimal(clean: string, scale: 100): number | null {
  const match = /^(\d*)(?:\.(\d{0,2}))?$/.exec(clean);
  if (!match || clean === '' || clean === '.') return null;
  const whole = match[1] ?? '';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  if (whole === '' && (match[2] ?? '') === '') return null;
  const value = Number(whole || '0') * scale + Number(fraction);
  return Number.isSafeInteger(value) ? value : null;
}
