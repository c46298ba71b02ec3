/**
 * The server's event stream (GET /api/events, decision 009): while signed in, one fetch-read stream names
 * what changed on the server without the user (a phone enrolled, a command finished, a schedule fired, a
 * payment, the dues run), and each change invalidates the cache tags of the screens that show it. Reconnects
 * with back-off, at once when the network comes back; after a gap every covered tag is read again.
 */
import { useSyncExternalStore } from 'react';
import { APP_ORG_ID, HTTP_SESSION_INVALID } from '@kisht/domain/constants';
import type { StreamEvent } from '@kisht/contract/events';
import { api } from './api.ts';
import { tagsAfterClaim, tagsAfterCustomerEdit, tagsAfterFamilyCare, tagsAfterOrder, tagsAfterPayment, type CacheTag } from './cache-tags.ts';
import { buildRequestHeaders } from './headers.ts';
import { readStored } from '../storage.ts';
import { describeClient, storedDeviceDetails } from '../device-details.ts';
import { resolveOrgId } from '../auth/token.ts';
import { endInvalidSession } from '../auth/session-invalid.ts';
import type { AppDispatch } from '../state/hooks.ts';

const EVENTS_URL = '/api/events';
const API_BASE_URL = import.meta.env.VITE_API_BASE_URL ?? '';
/** The server sends a keep-alive every 25 s; this long without a byte means the connection is gone. */
export const STREAM_SILENCE_MS = 60_000;
export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 30_000;
/** Changes arriving together (a bulk lock's answers) refresh the screens once. */
export const INVALIDATE_GATHER_MS = 250;

/** What a change makes stale: the tags the screens showing it provide. */
export function tagsForEvent(event: StreamEvent): CacheTag[] {
  switch (event.type) {
    case 'customer':
      // Enrolment, an edit or a settled lock: the profile, the list row, the counts and the device panel (and a
      // family-care phone's enrolment or renewal).
      return [...event.customer_ids.flatMap((id) => [...tagsAfterCustomerEdit(id), { type: 'Device' as const, id }]), 'Dashboard', 'Antitheft', ...tagsAfterFamilyCare(event.customer_ids)];
    case 'device_command':
      // A command the phone carried out may be lost mode (the anti-theft list) or family rules it now keeps.
      return [...event.customer_ids.map((id) => ({ type: 'Device' as const, id })), 'Antitheft', ...tagsAfterFamilyCare(event.customer_ids)];
    case 'schedule':
      return event.customer_ids.flatMap((id) => [{ type: 'DeviceSchedule' as const, id }, { type: 'Device' as const, id }]);
    case 'emi':
      return event.customer_ids.flatMap((id) => tagsAfterPayment(id));
    case 'sim_change':
      return ['SimChanges', ...event.customer_ids.map((id) => ({ type: 'Device' as const, id })), 'Antitheft'];
    case 'batch':
      return [{ type: 'Batch', id: event.id }];
    case 'dues':
      return ['Emi', 'Customer', 'CustomerList', 'Upcoming', 'Dashboard', 'Outstanding'];
    case 'network':
      // Your switches (the device panel greys what they no longer allow), a member's block state or details, keys moved.
      // A cancelled enrolment also goes out as one (its customer is gone, so no customer event can name it).
      return ['Access', 'Network', 'KeyHistory', 'Balance', 'Dashboard', 'CustomerList', 'Customer'];
    case 'payment':
      return tagsAfterOrder(event.customer_ids);
    case 'antihacking':
      // A sale added, activated on the buyer's phone or revoked: the sales list and its code states.
      return ['Antihacking'];
    case 'warranty':
      // A warranty sold or revoked, or one of its claims raised or moved: the sales, their claims and certificates.
      return ['Warranty'];
    case 'family_usage':
      // A family-care phone reported its usage, or its rules changed: its section and the family-care list.
      return tagsAfterFamilyCare(event.customer_ids);
    case 'payment_claim':
      // A new claim or a decision: the event does not say which, so a confirmed claim's payment is read again too.
      return tagsAfterClaim(event.customer_ids, true);
    case 'notification':
      // One arrived, or yours were read on another device: the bell's count and an open list.
      return ['Notifications'];
    case 'campaign':
      // An offers campaign started, phones answered or opened its offer, or it finished: its progress, results and phones.
      return ['Campaign'];
    default:
      return [];
  }
}

/** Everything the stream covers, read again after a gap in which changes may have been missed. */
export const TAGS_AFTER_GAP: CacheTag[] = [
  'Customer', 'CustomerList', 'Emi', 'Payments', 'Upcoming', 'Dashboard', 'Outstanding', 'Device', 'DeviceSchedule', 'SimChanges', 'Batch',
  'Access', 'Network', 'KeyHistory', 'Balance', 'PaymentOrders', 'PaymentClaims', 'Antihacking', 'Warranty', 'Antitheft', 'FamilyCare',
  'Notifications', 'Campaign',
];

export interface SseMessage {
  event: string;
  data: string;
}

/** Splits what has arrived into complete messages and the unfinished rest (SSE: blocks end with a blank line). */
export function parseSse(buffer: string): { messages: SseMessage[]; rest: string } {
  const messages: SseMessage[] = [];
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) messages.push({ event, data: data.join('\n') });
  }
  return { messages, rest };
}

/** The wait before the next try: doubling from 1 s up to 30 s, with some jitter so consoles do not return together. */
export function retryDelay(attempt: number, random = Math.random): number {
  const base = Math.min(RETRY_FIRST_MS * 2 ** attempt, RETRY_MAX_MS);
  return Math.round(base * (0.75 + random() * 0.5));
}

// Whether the stream is open now; screens keep a slow poll only while it is not.
let live = false;
const listeners = new Set<() => void>();
function setLive(next: boolean) {
  if (live === next) return;
  live = next;
  for (const listener of listeners) listener();
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True while the event stream is open (changes arrive by themselves); false while it is down. */
export function useServerEventsLive(): boolean {
  return useSyncExternalStore(subscribe, () => live, () => false);
}

/** Keeps the stream open until the returned stop is called (app/use-server-events.ts opens it while signed in). */
export function startServerEvents(dispatch: AppDispatch): () => void {
  let stopped = false;
  let attempt = 0;
  let connectedBefore = false;
  let controller: AbortController | null = null;
  let retryTimer: number | undefined;
  let gathered: CacheTag[] = [];
  let gatherTimer: number | undefined;

  const invalidate = (tags: CacheTag[]) => {
    if (tags.length === 0) return;
    gathered.push(...tags);
    gatherTimer ??= window.setTimeout(() => {
      gatherTimer = undefined;
      const all = gathered;
      gathered = [];
      if (!stopped) dispatch(api.util.invalidateTags(all));
    }, INVALIDATE_GATHER_MS);
  };

  async function readOnce(): Promise<'again' | 'stop'> {
    controller = new AbortController();
    const abort = controller;
    let silence: number | undefined;
    const heard = () => {
      window.clearTimeout(silence);
      silence = window.setTimeout(() => abort.abort(), STREAM_SILENCE_MS);
    };
    try {
      const token = readStored('token');
      if (!token) return 'stop';
      const headers = await buildRequestHeaders({
        url: EVENTS_URL,
        token,
        deviceDetails: readStored('deviceDetails'),
        client: describeClient(navigator.userAgent, storedDeviceDetails()),
        orgId: resolveOrgId(token, import.meta.env.VITE_APP_ORG_ID, APP_ORG_ID),
      });
      heard();
      const res = await fetch(`${API_BASE_URL}${EVENTS_URL}`, { headers: { ...headers, accept: 'text/event-stream' }, signal: abort.signal, cache: 'no-store' });
      if (res.status === HTTP_SESSION_INVALID) {
        void endInvalidSession();
        return 'stop';
      }
      if (!res.ok || !res.body) return 'again';
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'again';
        heard();
        const parsed = parseSse(buffer + value);
        buffer = parsed.rest;
        for (const message of parsed.messages) {
          if (message.event === 'ready') {
            attempt = 0;
            setLive(true);
            // Changes made while the stream was down were not heard: read what the screens show again.
            if (connectedBefore) invalidate(TAGS_AFTER_GAP);
            connectedBefore = true;
          } else if (message.event === 'end') {
            // The session ended (logout elsewhere): the next try answers 511 and signs out like any call.
            return 'again';
          } else if (message.event === 'message') {
            invalidate(tagsForEvent(JSON.parse(message.data) as StreamEvent));
          }
        }
      }
    } catch {
      return 'again';
    } finally {
      window.clearTimeout(silence);
      setLive(false);
    }
  }

  async function run() {
    while (!stopped) {
      const outcome = await readOnce();
      if (stopped || outcome === 'stop') return;
      await new Promise<void>((resolve) => {
        retryTimer = window.setTimeout(resolve, retryDelay(attempt++));
        // Back online: try at once instead of waiting out the back-off.
        wake = resolve;
      });
      wake = null;
    }
  }

  let wake: (() => void) | null = null;
  const onOnline = () => {
    window.clearTimeout(retryTimer);
    attempt = 0;
    wake?.();
  };
  // Offline: the open fetch would hang until the silence timer; drop it now.
  const onOffline = () => controller?.abort();
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  void run();

  return () => {
    stopped = true;
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    window.clearTimeout(retryTimer);
    window.clearTimeout(gatherTimer);
    wake?.();
    controller?.abort();
    setLive(false);
  };
}
