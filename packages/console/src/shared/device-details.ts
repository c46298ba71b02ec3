/**
 * Device details for the request headers. Inside the native app shell the shell supplies them
 * (see NATIVE-BRIDGE.md); in a plain browser they are derived from navigator.
 */
import { readStored, writeStored } from './storage.ts';

/** What the console stores under 'deviceDetails'. The shell may send more fields; they are kept. */
export interface DeviceDetails {
  device_id: string;
  source: 'shell' | 'browser';
  platform?: string;
  os_version?: string;
  brand?: string;
  model?: string;
  app_version?: string;
  user_agent?: string;
  language?: string;
  screen?: string;
  [extra: string]: unknown;
}

/** The four descriptive request headers, derived from the user agent and the stored details. */
export interface ClientDescription {
  browserName: string;
  browserVersion: string;
  deviceType: 'mobile' | 'tablet' | 'desktop';
  devicePlatform: string;
}

export const DEVICE_DETAILS_LINK = 'kisht://device-details';
export const DEVICE_DETAILS_MESSAGE = '{"type":"device-details"}';

declare global {
  interface Window {
    ReactNativeWebView?: { postMessage(message: string): void };
    /** Called by the native shell with the device details (an object or its JSON text). */
    onDeviceDetails?: (details: unknown) => void;
  }
}

/** Android System WebView marks its user agent with "; wv)". */
export function isAndroidWebView(userAgent: string): boolean {
  return /Android/i.test(userAgent) && userAgent.includes('; wv)');
}

export function describeClient(userAgent: string, details?: Partial<DeviceDetails> | null): ClientDescription {
  const ua = userAgent;
  const versionOf = (re: RegExp) => re.exec(ua)?.[1] ?? '';
  let browserName = 'Unknown';
  let browserVersion = '';
  if (isAndroidWebView(ua)) {
    browserName = 'Android WebView';
    browserVersion = versionOf(/Chrome\/([\d.]+)/);
  } else if (/EdgA?\/([\d.]+)/.test(ua)) {
    browserName = 'Edge';
    browserVersion = versionOf(/EdgA?\/([\d.]+)/);
  } else if (/SamsungBrowser\/([\d.]+)/.test(ua)) {
    browserName = 'Samsung Internet';
    browserVersion = versionOf(/SamsungBrowser\/([\d.]+)/);
  } else if (/(?:Firefox|FxiOS)\/([\d.]+)/.test(ua)) {
    browserName = 'Firefox';
    browserVersion = versionOf(/(?:Firefox|FxiOS)\/([\d.]+)/);
  } else if (/(?:Chrome|CriOS|Chromium)\/([\d.]+)/.test(ua)) {
    browserName = 'Chrome';
    browserVersion = versionOf(/(?:Chrome|CriOS|Chromium)\/([\d.]+)/);
  } else if (/Version\/([\d.]+).*Safari/.test(ua)) {
    browserName = 'Safari';
    browserVersion = versionOf(/Version\/([\d.]+)/);
  }

  let devicePlatform = 'Unknown';
  if (/Android/i.test(ua)) devicePlatform = 'Android';
  else if (/iPhone|iPad|iPod/i.test(ua)) devicePlatform = 'iOS';
  else if (/Windows/i.test(ua)) devicePlatform = 'Windows';
  else if (/Mac OS X|Macintosh/i.test(ua)) devicePlatform = 'macOS';
  else if (/CrOS/i.test(ua)) devicePlatform = 'ChromeOS';
  else if (/Linux/i.test(ua)) devicePlatform = 'Linux';
  if (details?.source === 'shell' && typeof details.platform === 'string' && details.platform) {
    devicePlatform = details.platform;
  }

  let deviceType: ClientDescription['deviceType'] = 'desktop';
  if (/iPad|Tablet/i.test(ua) || (/Android/i.test(ua) && !/Mobile/i.test(ua))) deviceType = 'tablet';
  else if (/Mobi|iPhone|iPod|Android/i.test(ua)) deviceType = 'mobile';

  return { browserName, browserVersion, deviceType, devicePlatform };
}

/** Accepts what the shell sends (object or JSON text); null when it is not an object. */
export function parseDeviceDetails(input: unknown): Record<string, unknown> | null {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A version 4 UUID from getRandomValues, which (unlike randomUUID) also exists on plain-http origins. */
export function randomDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function deviceId(): string {
  const existing = readStored('deviceId');
  if (existing) return existing;
  const created = randomDeviceId();
  writeStored('deviceId', created);
  return created;
}

function browserDetails(): DeviceDetails {
  const client = describeClient(navigator.userAgent);
  return {
    device_id: deviceId(),
    source: 'browser',
    platform: client.devicePlatform,
    user_agent: navigator.userAgent,
    language: navigator.language,
    screen: `${window.screen.width}x${window.screen.height}@${window.devicePixelRatio || 1}`,
  };
}

let lastKnown: DeviceDetails | null = null;

function store(details: DeviceDetails): void {
  lastKnown = details;
  writeStored('deviceId', details.device_id);
  writeStored('deviceDetails', JSON.stringify(details));
  writeStored('isAndroid', details.platform === 'Android' ? '1' : '0');
}

/** Handler installed as window.onDeviceDetails: keeps the shell's fields and our device id. */
function receiveFromShell(input: unknown): void {
  const parsed = parseDeviceDetails(input);
  if (!parsed) {
    console.error('onDeviceDetails: expected an object or JSON object text');
    return;
  }
  const shellId = typeof parsed.device_id === 'string' && parsed.device_id ? parsed.device_id : null;
  store({ ...parsed, device_id: shellId ?? deviceId(), source: 'shell', platform: String(parsed.platform ?? 'Android') });
}

/**
 * Sends the shell a request: a message to a React Native WebView, or, in any other Android WebView shell, a
 * navigation to `link` that the shell intercepts (its own scheme). A hidden iframe keeps the page in place; it only
 * has to start the navigation, so it is removed at once (as JavaScript bridges do): a lingering frame stuck on an
 * unknown scheme can swallow input in some Chromium builds.
 */
export function askShell(message: string, link: string): void {
  if (window.ReactNativeWebView) {
    window.ReactNativeWebView.postMessage(message);
    return;
  }
  const frame = document.createElement('iframe');
  frame.style.display = 'none';
  frame.setAttribute('aria-hidden', 'true');
  frame.src = link;
  document.documentElement.appendChild(frame);
  window.setTimeout(() => frame.remove(), 0);
}

export function isInAppShell(): boolean {
  return Boolean(window.ReactNativeWebView) || isAndroidWebView(navigator.userAgent);
}

/** Runs once at start-up. */
export function startDeviceDetailsBridge(): void {
  window.onDeviceDetails = receiveFromShell;
  const stored = parseDeviceDetails(readStored('deviceDetails'));
  if (stored?.source === 'shell') lastKnown = stored as DeviceDetails;
  // Until (or unless) the shell answers, the browser's own description is used.
  if (!lastKnown) store(browserDetails());
  if (isInAppShell()) askShell(DEVICE_DETAILS_MESSAGE, DEVICE_DETAILS_LINK);
}

/** Writes the last known details back after local storage was cleared (HTTP 511). */
export function restoreDeviceDetails(): void {
  if (lastKnown) store(lastKnown);
}

export function storedDeviceDetails(): Partial<DeviceDetails> | null {
  return parseDeviceDetails(readStored('deviceDetails')) as Partial<DeviceDetails> | null;
}
