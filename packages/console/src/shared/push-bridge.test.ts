import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseOpened, parsePushToken, pushBridge, startPushBridge } from './push-bridge.ts';

describe("the native shell's push", () => {
  afterEach(() => {
    pushBridge.takeOpened();
    vi.unstubAllGlobals();
  });

  it('takes a token as FCM gives it, and refuses anything else', () => {
    expect(parsePushToken('fcm:APA91bH-x_y9')).toBe('fcm:APA91bH-x_y9');
    for (const bad of ['', 'has space', 'a'.repeat(4097), 42, null, { token: 'x' }]) expect(parsePushToken(bad)).toBeNull();
  });

  it('reads the tapped notification from an object, its JSON text or a bare id', () => {
    expect(parseOpened({ notification_id: 17 })).toBe(17);
    expect(parseOpened('{"notification_id":"18"}')).toBe(18);
    expect(parseOpened('19')).toBe(19);
    for (const bad of [{ notification_id: -1 }, 'x', null, { notification_id: 1.5 }]) expect(parseOpened(bad)).toBeNull();
  });

  it("hands the shell's token and a tap to whoever listens, and a tap in the start address too", () => {
    // A plain browser (no shell): the bridge listens, and never asks a shell for anything.
    vi.stubGlobal('window', {});
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' });
    startPushBridge({ search: '?open_notification=31' } as Location);
    expect(pushBridge.opened()).toBe(31);
    expect(pushBridge.takeOpened()).toBe(31);
    expect(pushBridge.opened()).toBeNull();
    let told = 0;
    const stop = pushBridge.subscribe(() => told++);
    window.onPushToken?.('shell-token-1');
    window.onPushToken?.('bad token');
    window.onPushOpened?.({ notification_id: 5 });
    stop();
    expect(told).toBe(2);
    expect(pushBridge.token()).toBe('shell-token-1');
    expect(pushBridge.opened()).toBe(5);
  });
});
