import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSse, retryDelay, RETRY_MAX_MS, startServerEvents, tagsForEvent, TAGS_AFTER_GAP } from './server-events.ts';

describe('tagsForEvent', () => {
  it('an enrolment or a settled lock refreshes the profile, the list row, the device panel and the counts', () => {
    expect(tagsForEvent({ type: 'customer', customer_ids: [4] })).toEqual(
      expect.arrayContaining([{ type: 'Customer', id: 4 }, 'CustomerList', { type: 'Device', id: 4 }, 'Dashboard']),
    );
  });

  it("a command's move refreshes only that customer's device panel and family care (rules confirmed), and the anti-theft and family-care lists", () => {
    expect(tagsForEvent({ type: 'device_command', customer_ids: [4, 9] })).toEqual([
      { type: 'Device', id: 4 }, { type: 'Device', id: 9 }, 'Antitheft', { type: 'FamilyCare', id: 4 }, { type: 'FamilyCare', id: 9 }, { type: 'FamilyCare', id: 'LIST' },
    ]);
  });

  it("a family-care phone's usage report (or a rules change) refreshes only that phone's family care and the family-care list", () => {
    expect(tagsForEvent({ type: 'family_usage', customer_ids: [6] })).toEqual([{ type: 'FamilyCare', id: 6 }, { type: 'FamilyCare', id: 'LIST' }]);
  });

  it("an enrolment or a renewal refreshes the family-care phone's section and the list", () => {
    expect(tagsForEvent({ type: 'customer', customer_ids: [3] })).toEqual(expect.arrayContaining([{ type: 'FamilyCare', id: 3 }, { type: 'FamilyCare', id: 'LIST' }]));
  });

  it('a fired schedule refreshes the schedules list; a payment the same figures as paying here', () => {
    expect(tagsForEvent({ type: 'schedule', customer_ids: [2] })).toContainEqual({ type: 'DeviceSchedule', id: 2 });
    expect(tagsForEvent({ type: 'emi', customer_ids: [2] })).toEqual(expect.arrayContaining([{ type: 'Emi', id: 2 }, { type: 'Payments', id: 2 }, 'Upcoming', 'Outstanding']));
  });

  it('a batch refreshes its progress; the dues run every figure it moves', () => {
    expect(tagsForEvent({ type: 'batch', id: 'b1' })).toEqual([{ type: 'Batch', id: 'b1' }]);
    expect(tagsForEvent({ type: 'dues' })).toEqual(expect.arrayContaining(['Emi', 'Customer', 'CustomerList', 'Dashboard']));
  });

  it("a network change re-reads the caller's switches (the device panel greys what they no longer allow), members, histories and key stock", () => {
    expect(tagsForEvent({ type: 'network' })).toEqual(expect.arrayContaining(['Access', 'Network', 'KeyHistory', 'Balance']));
  });

  it("a gateway order's move refreshes the order lists, what its customer owes, and key stock (a paid key order credits keys)", () => {
    expect(tagsForEvent({ type: 'payment', customer_ids: [5] })).toEqual(expect.arrayContaining(['PaymentOrders', { type: 'Emi', id: 5 }, { type: 'Payments', id: 5 }, 'Balance']));
    // A retailer's key order names no customer: the lists and the balances still refresh.
    expect(tagsForEvent({ type: 'payment', customer_ids: [] })).toEqual(expect.arrayContaining(['PaymentOrders', 'Balance', 'KeyHistory']));
  });

  it('an "I paid" claim refreshes the claim lists and, as it may have been confirmed, its customer\'s payments', () => {
    expect(tagsForEvent({ type: 'payment_claim', customer_ids: [8] })).toEqual(expect.arrayContaining(['PaymentClaims', { type: 'Payments', id: 8 }, { type: 'Emi', id: 8 }]));
  });

  it('an anti-hacking sale added, activated on the phone or revoked refreshes the sales lists', () => {
    expect(tagsForEvent({ type: 'antihacking' })).toEqual(['Antihacking']);
  });

  it('a warranty sold or revoked, or a claim raised or moved, refreshes the warranty screens', () => {
    expect(tagsForEvent({ type: 'warranty' })).toEqual(['Warranty']);
  });

  it('a notification arriving (or read on another device) refreshes the bell and the list', () => {
    expect(tagsForEvent({ type: 'notification' })).toEqual(['Notifications']);
  });

  it('an offers campaign moving (phones reached, offers opened, finished) refreshes the campaign screens', () => {
    expect(tagsForEvent({ type: 'campaign' })).toEqual(['Campaign']);
  });

  it('after a gap every kind of tag an event names is read again', () => {
    const named = new Set(
      [
        tagsForEvent({ type: 'customer', customer_ids: [1] }), tagsForEvent({ type: 'device_command', customer_ids: [1] }), tagsForEvent({ type: 'schedule', customer_ids: [1] }),
        tagsForEvent({ type: 'emi', customer_ids: [1] }), tagsForEvent({ type: 'sim_change', customer_ids: [1] }), tagsForEvent({ type: 'batch', id: 'x' }), tagsForEvent({ type: 'dues' }),
        tagsForEvent({ type: 'network' }), tagsForEvent({ type: 'payment', customer_ids: [1] }), tagsForEvent({ type: 'payment_claim', customer_ids: [1] }),
        tagsForEvent({ type: 'antihacking' }), tagsForEvent({ type: 'warranty' }), tagsForEvent({ type: 'family_usage', customer_ids: [1] }),
        tagsForEvent({ type: 'notification' }), tagsForEvent({ type: 'campaign' }),
      ].flat().map((tag) => (typeof tag === 'string' ? tag : tag.type)),
    );
    for (const type of named) expect(TAGS_AFTER_GAP).toContain(type);
  });
});

describe('parseSse', () => {
  it('reads events, data and comments, and keeps an unfinished block for later', () => {
    const { messages, rest } = parseSse('retry: 5000\nevent: ready\ndata: {}\n\n: keep-alive\n\ndata: {"type":"dues"}\n\ndata: {"ty');
    expect(messages).toEqual([{ event: 'ready', data: '{}' }, { event: 'message', data: '{"type":"dues"}' }]);
    expect(rest).toBe('data: {"ty');
    expect(parseSse(`${rest}pe":"dues"}\r\n\r\n`).messages).toEqual([{ event: 'message', data: '{"type":"dues"}' }]);
  });
});

describe('retryDelay', () => {
  it('doubles from one second up to thirty, with jitter', () => {
    expect(retryDelay(0, () => 0.5)).toBe(1000);
    expect(retryDelay(3, () => 0.5)).toBe(8000);
    expect(retryDelay(20, () => 0.5)).toBe(RETRY_MAX_MS);
    expect(retryDelay(2, () => 0)).toBe(3000);
    expect(retryDelay(2, () => 1)).toBe(5000);
  });
});

describe('startServerEvents', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A response whose body is the given SSE text, then ends. */
  const streamOf = (text: string) =>
    new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(text)); c.close(); } }), { status: 200, headers: { 'content-type': 'text/event-stream' } });

  it('invalidates the tags of each change and reconnects after the stream ends, reading everything again', async () => {
    const target = new EventTarget();
    vi.stubGlobal('window', Object.assign(target, { setTimeout, clearTimeout }));
    vi.stubGlobal('navigator', { userAgent: 'test' });
    vi.stubGlobal('localStorage', { getItem: (key: string) => (key.endsWith('token') ? 'a.eyJvcmciOjIzfQ.b' : null), setItem: () => undefined, removeItem: () => undefined });
    const fetch = vi.fn()
      .mockResolvedValueOnce(streamOf('event: ready\ndata: {}\n\ndata: {"type":"device_command","customer_ids":[7]}\n\n'))
      .mockResolvedValueOnce(streamOf('event: ready\ndata: {}\n\n'))
      .mockImplementation(() => new Promise(() => undefined));
    vi.stubGlobal('fetch', fetch);
    const dispatched: unknown[] = [];
    const stop = startServerEvents(((action: unknown) => dispatched.push(action)) as never);

    const tagsOf = (action: unknown) => (action as { payload: unknown }).payload;
    await vi.waitFor(() => expect(dispatched.map(tagsOf)).toEqual([[{ type: 'Device', id: 7 }, 'Antitheft', { type: 'FamilyCare', id: 7 }, { type: 'FamilyCare', id: 'LIST' }]]), { timeout: 1000 });
    expect(fetch.mock.calls[0]![0]).toMatch(/\/api\/events$/);
    const headers = fetch.mock.calls[0]![1].headers as Record<string, string>;
    expect(headers.Authorization ?? headers.authorization).toMatch(/^Bearer /);

    // The first stream ended: the next try comes after the back-off, and after the gap everything is read again.
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(3), { timeout: 4000 });
    await vi.waitFor(() => expect(dispatched.map(tagsOf)).toContainEqual(TAGS_AFTER_GAP), { timeout: 1000 });
    stop();
  });
});
