/**
 * What changed on the server without the user asking (a phone enrolled, a command finished, a schedule
 * fired, a payment, the dues run), named by ids only, and the bus that carries it to every API node:
 * PostgreSQL LISTEN/NOTIFY when DATABASE_URL is set, an in-process bus on the embedded database.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/** Kinds of change bound to customers; each reaches only sessions that may see those customers. */
export const CUSTOMER_CHANGES = ['customer', 'device_command', 'schedule', 'emi', 'sim_change', 'payment_claim', 'payment', 'family_usage'] as const;
export type CustomerChange = (typeof CUSTOMER_CHANGES)[number];

/** One change as emitted inside the server. */
export type ChangeEvent =
  | { type: CustomerChange; customer_ids: number[] }
  /** A bulk lock/unlock batch moved: its creator's network (a mini-retailer only its own batches). */
  | { type: 'batch'; id: string }
  /** An organisation's dues run changed figures across its customers; no ids, every network of the organisation. */
  | { type: 'dues'; org_id: number }
  /** Members of the retailer network changed (switches, block state, details, key balances): they, their ancestors and their subtrees hear of it. */
  | { type: 'network'; user_ids: number[]; access?: boolean }
  /** A retailer's key order at the gateway moved: the sessions that list that retailer's orders hear of it. */
  | { type: 'key_order'; account_id: number; retailer_id: number }
  /** An anti-hacking plan was sold, activated on the phone or revoked: the sessions that list that seller's sales. */
  | { type: 'antihacking'; account_id: number; retailer_id: number }
  /** An extended warranty was sold or revoked, or one of its claims moved: the sessions that list that seller's sales. */
  | { type: 'warranty'; account_id: number; retailer_id: number }
  /** An offers campaign moved: the sessions that list that creator's campaigns (a mini-retailer only its own). */
  | { type: 'campaign'; account_id: number; retailer_id: number }
  /** Notifications arrived for these members, or one of them read theirs: their own sessions only. */
  | { type: 'notification'; user_ids: number[] };

/** The emitters' side: fire and forget, never throws (a lost event costs a refetch, not the write). */
export type Notify = (event: ChangeEvent) => void;

/** A user's sessions may have ended (logout, sessions screen): nodes check that user's streams now. */
export type BusMessage = ChangeEvent | { type: 'sessions'; user_id: number };

export interface EventBus {
  publish(message: BusMessage): void;
  /** Called with every message, from this node and others. */
  subscribe(handler: (message: BusMessage) => void): void;
  close(): Promise<void>;
}

/** One process: the embedded database has one owner, so every session is on this node. */
export function createLocalBus(): EventBus {
  const handlers: Array<(message: BusMessage) => void> = [];
  return {
    publish(message) {
      // Delivered after the caller's own work, like a notification that crossed the network.
      queueMicrotask(() => {
        for (const handler of handlers) handler(message);
      });
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    async close() {
      handlers.length = 0;
    },
  };
}

export const EVENTS_CHANNEL = 'kisht_events';
/** NOTIFY payloads are limited to 8000 bytes; large id sets go out in parts. */
const IDS_PER_NOTIFY = 500;

function split(message: BusMessage): BusMessage[] {
  if (!('customer_ids' in message) || message.customer_ids.length <= IDS_PER_NOTIFY) return [message];
  const parts: BusMessage[] = [];
  for (let i = 0; i < message.customer_ids.length; i += IDS_PER_NOTIFY) parts.push({ type: message.type, customer_ids: message.customer_ids.slice(i, i + IDS_PER_NOTIFY) });
  return parts;
}

/**
 * Several API nodes on one PostgreSQL: every message goes out with NOTIFY and comes back to each node
 * through its own LISTEN connection (a pooled connection cannot hold a LISTEN). This node's own messages are
 * handed over at once and skipped when they come back, so a dropped listener does not silence this node.
 * The listener reconnects on its own, doubling its wait up to 30 s; what it missed meanwhile is lost, and the
 * console reads everything again whenever its stream reconnects.
 */
export function createPostgresBus(options: { connectionString: string; notify: (channel: string, payloads: readonly string[]) => Promise<void>; log: (message: string, error?: unknown) => void }): EventBus {
  const node = randomUUID().slice(0, 8);
  const handlers: Array<(message: BusMessage) => void> = [];
  const deliver = (message: BusMessage) => {
    for (const handler of handlers) handler(message);
  };
  let client: pg.Client | null = null;
  let closed = false;
  let wait = 500;
  let timer: NodeJS.Timeout | undefined;

  async function listen(): Promise<void> {
    if (closed) return;
    const { default: pg } = await import('pg');
    if (closed) return;
    const next = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
    const retry = (error: unknown) => {
      if (client === next) client = null;
      next.removeAllListeners();
      next.on('error', () => undefined);
      void next.end().catch(() => undefined);
      if (closed) return;
      options.log('event listener lost its connection; reconnecting', error);
      timer = setTimeout(() => void listen(), wait);
      wait = Math.min(wait * 2, 30_000);
    };
    next.on('error', retry);
    next.on('end', () => {
      if (client === next) retry(new Error('connection ended'));
    });
    next.on('notification', (note) => {
      if (note.channel !== EVENTS_CHANNEL || !note.payload) return;
      try {
        const { from, message } = JSON.parse(note.payload) as { from: string; message: BusMessage };
        if (from !== node) deliver(message);
      } catch (error) {
        options.log('unreadable event notification', error);
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      client = next;
      wait = 500;
    } catch (error) {
      retry(error);
    }
  }
  void listen();

  let outgoing: string[] = [];
  function sendOutgoing(): void {
    const payloads = outgoing;
    outgoing = [];
    options.notify(EVENTS_CHANNEL, payloads).catch(() => {
      // One payload the database refuses must not take the turn's others with it: each goes on its own.
      for (const payload of payloads) options.notify(EVENTS_CHANNEL, [payload]).catch((error: unknown) => options.log('publishing an event failed', error));
    });
  }

  return {
    publish(message) {
      queueMicrotask(() => deliver(message));
      // What this turn of the event loop emits goes in one statement: a group of phone reports emits several.
      if (outgoing.length === 0) setImmediate(sendOutgoing);
      for (const part of split(message)) outgoing.push(JSON.stringify({ from: node, message: part }));
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      handlers.length = 0;
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners();
        current.on('error', () => undefined);
        await current.end().catch(() => undefined);
      }
    },
  };
}
