import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BYPASSED_LOCATION, captureLocation, coordinateText, type GeolocationLike } from './geolocation.ts';

type Success = PositionCallback;
type Failure = PositionErrorCallback | null | undefined;

/** A fake geolocation that answers when the test says so. */
function fakeGeolocation() {
  const calls: { success: Success; failure: Failure; options: PositionOptions | undefined }[] = [];
  const geo: GeolocationLike = {
    getCurrentPosition(success, failure, options) {
      calls.push({ success, failure, options });
    },
  };
  const position = (latitude: number, longitude: number) =>
    ({ coords: { latitude, longitude, accuracy: 10 }, timestamp: Date.now() }) as unknown as GeolocationPosition;
  return { geo, calls, position };
}

describe('captureLocation', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for a fresh, precise fix with a 5 s timeout and gives the coordinates as text', async () => {
    const fake = fakeGeolocation();
    const result = captureLocation(fake.geo);
    expect(fake.calls[0]!.options).toEqual({ enableHighAccuracy: true, maximumAge: 0, timeout: 5000 });
    fake.calls[0]!.success(fake.position(19.0760123456, 72.8777));
    await expect(result).resolves.toEqual({ latitude: '19.0760123', longitude: '72.8777000' });
  });

  it('is "Bypassed" when there is no geolocation', async () => {
    await expect(captureLocation(undefined)).resolves.toEqual({ latitude: 'Bypassed', longitude: 'Bypassed' });
    await expect(captureLocation({} as GeolocationLike)).resolves.toEqual(BYPASSED_LOCATION);
  });

  it('is "Bypassed" when the fix fails or the call throws', async () => {
    const fake = fakeGeolocation();
    const result = captureLocation(fake.geo);
    fake.calls[0]!.failure!({ code: 1, message: 'denied' } as GeolocationPositionError);
    await expect(result).resolves.toEqual(BYPASSED_LOCATION);
    const throwing: GeolocationLike = {
      getCurrentPosition() {
        throw new Error('insecure context');
      },
    };
    await expect(captureLocation(throwing)).resolves.toEqual(BYPASSED_LOCATION);
  });

  it('is "Bypassed" after 5 s without an answer, and a late answer changes nothing', async () => {
    const fake = fakeGeolocation();
    const result = captureLocation(fake.geo);
    let settled: unknown = null;
    void result.then((value) => (settled = value));
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual(BYPASSED_LOCATION);
    fake.calls[0]!.success(fake.position(12, 77));
    await expect(result).resolves.toEqual(BYPASSED_LOCATION);
  });

  it('takes an answer that comes just in time', async () => {
    const fake = fakeGeolocation();
    const result = captureLocation(fake.geo);
    await vi.advanceTimersByTimeAsync(4900);
    fake.calls[0]!.success(fake.position(-33.8688, 151.2093));
    await expect(result).resolves.toEqual({ latitude: '-33.8688000', longitude: '151.2093000' });
  });
});

describe('coordinateText', () => {
  it('writes plain decimals the server accepts, never exponents', () => {
    expect(coordinateText(1e-8, 90)).toBe('0.0000000');
    expect(coordinateText(90, 90)).toBe('90.0000000');
    expect(coordinateText(91, 90)).toBeNull();
    expect(coordinateText(Number.NaN, 180)).toBeNull();
    expect(coordinateText(-179.123456789, 180)).toMatch(/^-?[0-9]{1,3}(\.[0-9]{1,10})?$/);
  });
});
