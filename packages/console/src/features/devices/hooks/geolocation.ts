/**
 * Where the retailer stands when asking for an uninstall. The specification's rule: when geolocation is
 * unavailable, fails, or takes over 5 seconds, both coordinates become "Bypassed".
 */
import { GEOLOCATION_BYPASSED, GEOLOCATION_TIMEOUT_MS } from '@kisht/domain/constants';

export interface RetailerLocation {
  latitude: string;
  longitude: string;
}

export const BYPASSED_LOCATION: RetailerLocation = { latitude: GEOLOCATION_BYPASSED, longitude: GEOLOCATION_BYPASSED };

/** The part of the browser's Geolocation the capture needs (a fake in tests). */
export type GeolocationLike = Pick<Geolocation, 'getCurrentPosition'>;

/** A coordinate as the server takes it: plain decimal text, at most 7 places (about a centimetre). */
export function coordinateText(value: number, limit: 90 | 180): string | null {
  if (!Number.isFinite(value) || Math.abs(value) > limit) return null;
  return value.toFixed(7);
}

export function captureLocation(geolocation: GeolocationLike | null | undefined, timeoutMs: number = GEOLOCATION_TIMEOUT_MS): Promise<RetailerLocation> {
  if (!geolocation || typeof geolocation.getCurrentPosition !== 'function') return Promise.resolve(BYPASSED_LOCATION);
  return new Promise((resolve) => {
    let settled = false;
    // Our own clock as well as the API's timeout: a pending permission prompt does not count towards the latter.
    const timer = setTimeout(() => finish(BYPASSED_LOCATION), timeoutMs);
    function finish(location: RetailerLocation) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(location);
    }
    try {
      geolocation.getCurrentPosition(
        (position) => {
          const latitude = coordinateText(position.coords.latitude, 90);
          const longitude = coordinateText(position.coords.longitude, 180);
          finish(latitude && longitude ? { latitude, longitude } : BYPASSED_LOCATION);
        },
        () => finish(BYPASSED_LOCATION),
        { enableHighAccuracy: true, maximumAge: 0, timeout: timeoutMs },
      );
    } catch {
      finish(BYPASSED_LOCATION);
    }
  });
}

/** The browser's geolocation, when the page has one. */
export function browserGeolocation(): GeolocationLike | undefined {
  return typeof navigator !== 'undefined' && 'geolocation' in navigator ? navigator.geolocation : undefined;
}
