/** A date-and-time field (a scheduled lock, an offer's send time): a datetime-local value read as India time (UTC+05:30), whatever the phone's zone. */
const IST_OFFSET_MS = 330 * 60_000;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** "2026-07-01T09:30" (India time) -> "2026-07-01T04:00:00.000Z", or null when it is not a real time. */
export function istInputToIso(value: string): string | null {
  const match = LOCAL.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  return new Date(utc - IST_OFFSET_MS).toISOString();
}

/** An instant as a datetime-local value in India time (the field's minimum and default). */
export function isoToIstInput(instant: Date): string {
  return new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 16);
}
