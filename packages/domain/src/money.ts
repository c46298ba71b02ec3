/**
 * Rupees from integer paise, for display. Integer arithmetic only (no float rounding); Indian digit
 * grouping (1,00,000).
 */
const grouping = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });

export function formatRupees(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(paise));
  const rupees = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}₹${grouping.format(rupees)}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
}
