/**
 * The open event streams of this node: changes from the bus are gathered for a moment, each stream is sent
 * only the ids its session may see (the customers' visibility rule, batches by their owner, the dues run by
 * organisation), keep-alive comments hold the connection open, and a stream ends with its session.
 */
import type { StreamEvent } from '@kisht/contract/events';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { CustomersRepository } from '../customers/customers.repository.ts';
import { CUSTOMER_CHANGES, type BusMessage, type ChangeEvent, type CustomerChange, type EventBus, type Notify } from './events.bus.ts';
import type { EventsRepository } from './events.repository.ts';

export interface StreamSink {
  send(text: string): void;
  end(): void;
}

interface Stream {
  caller: RequestAuth;
  sink: StreamSink;
}

export interface EventHubOptions {
  bus: EventBus;
  events: EventsRepository;
  customers: Pick<CustomersRepository, 'visibleTo'>;
  log: (message: string, error?: unknown) => void;
  /** Told of every change this node emits, after the bus: work only the emitting node does (pushing notifications). */
  onEmit?: (event: ChangeEvent) => void;
  /** Changes are gathered this long and sent together (a bulk lock's hundreds of reports become a few events). */
  gatherMs?: number;
  keepAliveMs?: number;
  /** How often open streams' sessions are checked (sessions can end on another node, or expire). */
  sessionCheckMs?: number;
}

export const SSE_EVENT = (event: StreamEvent) => `data: ${JSON.stringify(event)}\n\n`;

export function createEventHub(options: EventHubOptions) {
  const { bus, events, customers } = options;
  const gatherMs = options.gatherMs ?? 150;
  const streams = new Set<Stream>();
  let pending: ChangeEvent[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  bus.subscribe((message: BusMessage) => {
    if (message.type === 'sessions') {
      if ([...streams].some((s) => s.caller.userId === message.user_id)) void checkSessions();
      return;
    }
    if (streams.size === 0) return;
    pending.push(message);
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      flushing = flushing.then(flush).catch((error: unknown) => options.log('sending events failed', error));
    }, gatherMs);
  });

  const viewerKey = (c: RequestAuth) => `${c.accountId}:${c.userType}:${c.userId}`;

  /** Sends the gathered changes, each stream's set merged by kind. */
  async function flush(): Promise<void> {
    const changes = pending;
    pending = [];
    if (streams.size === 0 || changes.length === 0) return;
    const out = new Map<Stream, StreamEvent[]>();
    const add = (stream: Stream, event: StreamEvent) => out.set(stream, [...(out.get(stream) ?? []), event]);

    // Customers: the network first, then the one visibility rule once per distinct viewer of that network.
    const byKind = new Map<CustomerChange, Set<number>>();
    for (const change of changes) {
      if (!('customer_ids' in change)) continue;
      const ids = byKind.get(change.type) ?? new Set<number>();
      for (const id of change.customer_ids) ids.add(id);
      byKind.set(change.type, ids);
    }
    const allIds = [...new Set([...byKind.values()].flatMap((ids) => [...ids]))];
    if (allIds.length > 0) {
      const accountOf = new Map((await events.accountsOf(allIds)).map((r) => [r.id, r.account_id]));
      const accounts = new Set(accountOf.values());
      const viewers = new Map<string, { caller: RequestAuth; streams: Stream[] }>();
      for (const stream of streams) {
        if (!accounts.has(stream.caller.accountId)) continue;
        const key = viewerKey(stream.caller);
        const entry = viewers.get(key) ?? { caller: stream.caller, streams: [] };
        entry.streams.push(stream);
        viewers.set(key, entry);
      }
      for (const { caller, streams: mine } of viewers.values()) {
        const candidates = allIds.filter((id) => accountOf.get(id) === caller.accountId);
        const visible = new Set((await customers.visibleTo(caller, candidates)).map((r) => r.id));
        for (const type of CUSTOMER_CHANGES) {
          const ids = [...(byKind.get(type) ?? [])].filter((id) => visible.has(id)).sort((a, b) => a - b);
          if (ids.length > 0) for (const stream of mine) add(stream, { type, customer_ids: ids });
        }
      }
    }

    const batchIds = [...new Set(changes.flatMap((c) => (c.type === 'batch' ? [c.id] : [])))];
    for (const batch of await events.batchOwners(batchIds)) {
      for (const stream of streams) {
        const { caller } = stream;
        if (caller.accountId === batch.account_id && (caller.userType === 'retailer' || caller.userId === batch.created_by)) add(stream, { type: 'batch', id: batch.id });
      }
    }

    const duesOrgs = new Set(changes.flatMap((c) => (c.type === 'dues' ? [c.org_id] : [])));
    for (const stream of streams) if (duesOrgs.has(stream.caller.orgId)) add(stream, { type: 'dues' });

    // The network: a changed member is heard of by itself, every member above it and every member below it.
    const members = [...new Set(changes.flatMap((c) => (c.type === 'network' ? c.user_ids : [])))];
    if (members.length > 0) {
      const chains = await events.chains([...new Set([...members, ...[...streams].map((s) => s.caller.userId)])]);
      const related = (viewer: number) => {
        const mine = chains.get(viewer) ?? [];
        return members.some((m) => mine.includes(m) || (chains.get(m) ?? []).includes(viewer));
      };
      for (const stream of streams) if (related(stream.caller.userId)) add(stream, { type: 'network' });
    }

    // Key orders: the account's sessions that list that retailer's orders (a mini-retailer only its own), told once.
    const keyOrders = changes.flatMap((c) => (c.type === 'key_order' ? [c] : []));
    if (keyOrders.length > 0) {
      for (const stream of streams) {
        const { caller } = stream;
        const own = caller.userType === 'miniretailer' ? caller.userId : null;
        if (keyOrders.some((o) => caller.accountId === o.account_id && (own === null || own === o.retailer_id))) add(stream, { type: 'payment', customer_ids: [] });
      }
    }

    // Anti-hacking sales: the seller's network, a mini-retailer only its own sales, told once.
    const sales = changes.flatMap((c) => (c.type === 'antihacking' ? [c] : []));
    if (sales.length > 0) {
      for (const stream of streams) {
        const { caller } = stream;
        const own = caller.userType === 'miniretailer' ? caller.userId : null;
        if (sales.some((s) => caller.accountId === s.account_id && (own === null || own === s.retailer_id))) add(stream, { type: 'antihacking' });
      }
    }

    // Offers campaigns: the same rule as anti-hacking sales, by the campaign's creator.
    const campaigns = changes.flatMap((c) => (c.type === 'campaign' ? [c] : []));
    if (campaigns.length > 0) {
      for (const stream of streams) {
        const { caller } = stream;
        const own = caller.userType === 'miniretailer' ? caller.userId : null;
        if (campaigns.some((s) => caller.accountId === s.account_id && (own === null || own === s.retailer_id))) add(stream, { type: 'campaign' });
      }
    }

    // Extended warranty sales and their claims: the same rule as anti-hacking sales.
    const warranties = changes.flatMap((c) => (c.type === 'warranty' ? [c] : []));
    if (warranties.length > 0) {
      for (const stream of streams) {
        const { caller } = stream;
        const own = caller.userType === 'miniretailer' ? caller.userId : null;
        if (warranties.some((s) => caller.accountId === s.account_id && (own === null || own === s.retailer_id))) add(stream, { type: 'warranty' });
      }
    }

    // Notifications: their recipients' own sessions, whatever else they see.
    const recipients = new Set(changes.flatMap((c) => (c.type === 'notification' ? c.user_ids : [])));
    if (recipients.size > 0) for (const stream of streams) if (recipients.has(stream.caller.userId)) add(stream, { type: 'notification' });

    for (const [stream, list] of out) {
      if (streams.has(stream)) stream.sink.send(list.map(SSE_EVENT).join(''));
    }
  }

  /** Ends the streams whose session is over (logout, ended from the sessions screen, expired, user switched off). */
  async function checkSessions(): Promise<void> {
    if (streams.size === 0) return;
    const live = await events.liveSessions([...new Set([...streams].map((s) => s.caller.sessionId))]);
    for (const stream of streams) if (!live.has(stream.caller.sessionId)) close(stream, 'session');
  }

  function close(stream: Stream, reason: string): void {
    if (!streams.delete(stream)) return;
    try {
      stream.sink.send(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
    } finally {
      stream.sink.end();
    }
  }

  const keepAlive = setInterval(() => {
    for (const stream of streams) stream.sink.send(': keep-alive\n\n');
  }, options.keepAliveMs ?? 25_000);
  const sessionCheck = setInterval(() => {
    checkSessions().catch((error: unknown) => options.log('checking event streams\' sessions failed', error));
  }, options.sessionCheckMs ?? 30_000);
  keepAlive.unref();
  sessionCheck.unref();

  const notify: Notify = (event) => {
    try {
      if ('customer_ids' in event && event.customer_ids.length === 0) return;
      if ('user_ids' in event && event.user_ids.length === 0) return;
      bus.publish(event);
      options.onEmit?.(event);
    } catch (error) {
      options.log('publishing an event failed', error);
    }
  };

  return {
    notify,
    /** A user's sessions may have ended: every node checks that user's streams now. */
    sessionsChanged(userId: number): void {
      bus.publish({ type: 'sessions', user_id: userId });
    },
    /** Several users' sessions ended at once (a blocked member and its subtree). */
    sessionsEnded(userIds: readonly number[]): void {
      for (const userId of userIds) bus.publish({ type: 'sessions', user_id: userId });
    },
    /** Opens a stream for a signed-in caller; returns the function that forgets it (the client went away). */
    open(caller: RequestAuth, sink: StreamSink): () => void {
      const stream: Stream = { caller, sink };
      streams.add(stream);
      sink.send(`retry: 5000\nevent: ready\ndata: {}\n\n`);
      return () => {
        streams.delete(stream);
      };
    },
    get size() {
      return streams.size;
    },
    async close(): Promise<void> {
      clearInterval(keepAlive);
      clearInterval(sessionCheck);
      clearTimeout(flushTimer);
      for (const stream of [...streams]) close(stream, 'shutdown');
      await flushing;
      await bus.close();
    },
  };
}
export type EventHub = ReturnType<typeof createEventHub>;
