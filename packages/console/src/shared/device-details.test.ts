import { describe, expect, it } from 'vitest';
import { describeClient, isAndroidWebView, parseDeviceDetails, randomDeviceId } from './device-details.ts';

const WEBVIEW =
  'Mozilla/5.0 (Linux; Android 13; SM-A145F Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const DESKTOP_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

describe('describeClient', () => {
  it('recognises the Android WebView of the app shell', () => {
    expect(isAndroidWebView(WEBVIEW)).toBe(true);
    expect(isAndroidWebView(CHROME_ANDROID)).toBe(false);
    expect(describeClient(WEBVIEW)).toEqual({
      browserName: 'Android WebView',
      browserVersion: '120.0.6099.230',
      deviceType: 'mobile',
      devicePlatform: 'Android',
    });
  });

  it('describes common browsers', () => {
    expect(describeClient(CHROME_ANDROID)).toMatchObject({ browserName: 'Chrome', deviceType: 'mobile', devicePlatform: 'Android' });
    expect(describeClient(DESKTOP_FIREFOX)).toEqual({
      browserName: 'Firefox',
      browserVersion: '125.0',
      deviceType: 'desktop',
      devicePlatform: 'Windows',
    });
    expect(describeClient(IPHONE_SAFARI)).toMatchObject({ browserName: 'Safari', browserVersion: '17.4', devicePlatform: 'iOS' });
  });

  it('takes the platform from the shell when it sent one', () => {
    expect(describeClient(WEBVIEW, { source: 'shell', platform: 'HarmonyOS' }).devicePlatform).toBe('HarmonyOS');
    expect(describeClient(WEBVIEW, { source: 'browser', platform: 'HarmonyOS' }).devicePlatform).toBe('Android');
  });
});

describe('parseDeviceDetails', () => {
  it('accepts objects and JSON object text only', () => {
    expect(parseDeviceDetails({ model: 'A15' })).toEqual({ model: 'A15' });
    expect(parseDeviceDetails('{"model":"A15"}')).toEqual({ model: 'A15' });
    expect(parseDeviceDetails('[1]')).toBeNull();
    expect(parseDeviceDetails('nope')).toBeNull();
    expect(parseDeviceDetails(null)).toBeNull();
  });
});

describe('randomDeviceId', () => {
  it('makes distinct version 4 UUIDs', () => {
    const a = randomDeviceId();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(randomDeviceId()).not.toBe(a);
  });
});
