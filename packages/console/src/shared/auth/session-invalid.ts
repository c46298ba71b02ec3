/**
 * HTTP 511 (session invalid) on any call: clear all local storage and go to /login.
 * The app registers how to navigate and reset its state; until then a full page load does it.
 */
import { clearAllStorage } from '../storage.ts';
import { restoreDeviceDetails } from '../device-details.ts';

type Handler = () => void | Promise<void>;

let handler: Handler = () => window.location.replace('/login');
let handling = false;

export function setSessionInvalidHandler(next: Handler): void {
  handler = next;
}

export async function endInvalidSession(): Promise<void> {
  // Several requests can fail with 511 together; act once.
  if (handling) return;
  handling = true;
  try {
    clearAllStorage();
    // The device identity is not the user's session; the headers still need it.
    restoreDeviceDetails();
    await handler();
  } finally {
    handling = false;
  }
}
