/** Turns a session row into the words shown for it. */
import type { SessionItem } from '@kisht/contract/sessions';

function parsedDetails(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** "Brand Model" from the device details when the shell sent them, else the platform and type. */
export function deviceLabel(session: SessionItem): string | null {
  const details = parsedDetails(session.device_details);
  const named = [str(details?.brand), str(details?.model)].filter(Boolean).join(' ');
  if (named) return named;
  return [session.device_platform, session.device_type].filter(Boolean).join(' · ') || null;
}

export function browserLabel(session: SessionItem): string | null {
  return [session.browser_name, session.browser_version].filter(Boolean).join(' ') || null;
}

/** The current session first, then the most recently active. */
export function orderSessions(sessions: readonly SessionItem[]): SessionItem[] {
  return [...sessions].sort((a, b) => {
    if (a.current !== b.current) return a.current ? -1 : 1;
    return Date.parse(b.last_seen_at) - Date.parse(a.last_seen_at);
  });
}
