/**
 * The native shell's push (docs/native-bridge.md): the shell hands the console its push token, which the signed-in
 * console registers so the retailer's notifications reach the phone while the console is closed; and a tapped push
 * tells the console which notification to open. Outside a shell nothing here runs.
 */
import { askShell, isInAppShell } from './device-details.ts';

export const PUSH_TOKEN_LINK = 'kisht://push-token';
export const PUSH_TOKEN_MESSAGE = '{"type":"push-token"}';
/** The start address the shell opens a tapped notification with, when the console is not running: ?open_notification=ID. */
export const OPEN_NOTIFICATION_PARAM = 'open_notification';

declare global {
  interface Window {
    /** Called by the native shell with its push token (text), at start and whenever the token changes. */
    onPushToken?: (token: unknown) => void;
    /** Called by the native shell when the user taps a pushed notification: { notification_id }. */
    onPushOpened?: (data: unknown) => void;
  }
}

type Listener = () => void;
let token: string | null = null;
let opened: number | null = null;
const listeners = new Set<Listener>();
const tell = () => listeners.forEach((l) => l());

/** A token as FCM and the server take it: printable, no spaces, at most 4096 characters. */
export function parsePushToken(input: unknown): string | null {
  return typeof input === 'string' && /^[\x21-\x7e]{1,4096}$/.test(input) ? input : null;
}

/** The notification a tap names: { notification_id } as an object or JSON text, or a bare id. */
export function parseOpened(input: unknown): number | null {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const id = typeof value === 'number' ? value : typeof value === 'object' && value !== null ? Number((value as { notification_id?: unknown }).notification_id) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export const pushBridge = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  token: () => token,
  /** The notification a tap asked to open, until it is taken. */
  opened: () => opened,
  takeOpened(): number | null {
    const id = opened;
    opened = null;
    return id;
  },
};

/** Runs once at start-up: listens to the shell, asks it for its token, and reads a tapped notification from the address. */
export function startPushBridge(location: Location = window.location): void {
  window.onPushToken = (input) => {
    const next = parsePushToken(input);
    if (!next) {
      console.error('onPushToken: expected the push token as text');
      return;
    }
    token = next;
    tell();
  };
  window.onPushOpened = (input) => {
    const id = parseOpened(input);
    if (id === null) {
      console.error('onPushOpened: expected { notification_id }');
      return;
    }
    opened = id;
    tell();
  };
  const fromAddress = parseOpened(new URLSearchParams(location.search).get(OPEN_NOTIFICATION_PARAM));
  if (fromAddress !== null) opened = fromAddress;
  if (isInAppShell()) askShell(PUSH_TOKEN_MESSAGE, PUSH_TOKEN_LINK);
}
