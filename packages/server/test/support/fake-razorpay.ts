/**
 * A local Razorpay for tests: the part of its documented API the adapter uses (basic auth; POST and GET
 * /v1/payment_links), a payer that pays a link as a UPI app would, and webhooks signed with the webhook secret
 * (X-Razorpay-Signature: hex HMAC-SHA256 of the body; X-Razorpay-Event-Id). It can be told to be down (503).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_KEY_ID = 'rzp_test_fake';
export const FAKE_KEY_SECRET = 'fake-key-secret';
export const FAKE_WEBHOOK_SECRET = 'fake-webhook-secret';

interface LinkPayment { payment_id: string; amount: number; currency: string; method: 'upi'; status: 'authorized' | 'captured' | 'failed'; created_at: number }
interface Link {
  id: string; entity: 'payment_link'; amount: number; amount_paid: number; currency: string; reference_id: string; description: string; notes: Record<string, string>;
  status: 'created' | 'paid' | 'expired' | 'cancelled'; short_url: string; upi_link: boolean; expire_by: number; order_id: string; payments: LinkPayment[]; created_at: number;
}

/** Where the fake sends its webhooks; tests hand it to the app under test (inject) or a real URL. */
export type WebhookSink = (body: string, headers: Record<string, string>) => Promise<number>;

const id = (prefix: string) => `${prefix}_${randomBytes(7).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

export function sign(body: string, secret = FAKE_WEBHOOK_SECRET): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export interface PayOptions {
  /** What the payer's app actually paid (default: the link's amount). */
  amount?: number;
  currency?: string;
  /** Events sent, in this order (default: authorized, captured, payment_link.paid). */
  events?: Array<'payment.authorized' | 'payment.captured' | 'payment.failed' | 'payment_link.paid' | 'order.paid'>;
  /** Pay without telling us (a lost webhook): only reconciliation can learn of it. */
  silent?: boolean;
}

/** `port`: 0 (the default) takes a free one. */
export async function startFakeRazorpay(options: { sink?: WebhookSink; port?: number } = {}) {
  const links = new Map<string, Link>();
  let down = false;
  let sink = options.sink;
  const requests: string[] = [];
  /** Every webhook sent, with its body and headers, so a test can send one again. */
  const sent: Array<{ body: string; headers: Record<string, string> }> = [];

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, description: string) => json(res, status, { error: { code: 'BAD_REQUEST_ERROR', description } });

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  }

  const server = createServer((req, res) => {
    void (async () => {
      requests.push(`${req.method} ${req.url}`);
      if (down) return error(res, 503, 'Service unavailable');
      if (req.headers.authorization !== `Basic ${Buffer.from(`${FAKE_KEY_ID}:${FAKE_KEY_SECRET}`).toString('base64')}`) return error(res, 401, 'Authentication failed');
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname.replace(/\/$/, '') === '/v1/payment_links') {
        const body = JSON.parse(await readBody(req)) as Partial<Link> & { upi_link?: boolean | string };
        if (!Number.isInteger(body.amount) || (body.amount ?? 0) < 100) return error(res, 400, 'The amount must be atleast INR 1.00');
        if (body.currency !== 'INR') return error(res, 400, 'Currency is not supported');
        const link: Link = {
          id: id('plink'), entity: 'payment_link', amount: body.amount!, amount_paid: 0, currency: body.currency, reference_id: body.reference_id ?? '', description: body.description ?? '',
          notes: body.notes ?? {}, status: 'created', short_url: `https://rzp.io/i/${randomBytes(5).toString('hex')}`, upi_link: String(body.upi_link) === 'true',
          expire_by: body.expire_by ?? 0, order_id: id('order'), payments: [], created_at: now(),
        };
        links.set(link.id, link);
        return json(res, 200, link);
      }
      const match = /^\/v1\/payment_links\/([A-Za-z0-9_]+)$/.exec(url.pathname);
      if (req.method === 'GET' && match) {
        const link = links.get(match[1]!);
        return link ? json(res, 200, link) : error(res, 400, 'The id provided does not exist');
      }
      return error(res, 404, 'The requested URL was not found on the server.');
    })().catch((e: unknown) => error(res, 500, String(e)));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function linkFor(reference: string): Link {
    const link = [...links.values()].find((l) => l.reference_id === reference || l.id === reference);
    if (!link) throw new Error(`no payment link for ${reference}`);
    return link;
  }

  /** An event body in Razorpay's shape, signed, sent to the sink; resolves with the HTTP status we answered. */
  async function send(event: string, link: Link, payment: LinkPayment & { notes?: Record<string, string> }, eventId = id('evt')): Promise<number> {
    const paymentEntity = {
      id: payment.payment_id, entity: 'payment', amount: payment.amount, currency: payment.currency, status: payment.status, order_id: link.order_id,
      method: 'upi', captured: payment.status === 'captured', vpa: 'payer@okfake', notes: link.notes, created_at: payment.created_at,
    };
    const payload: Record<string, { entity: unknown }> = { payment: { entity: paymentEntity } };
    if (event === 'payment_link.paid' || event === 'order.paid') {
      payload.order = { entity: { id: link.order_id, entity: 'order', amount: link.amount, amount_paid: link.amount_paid, currency: link.currency, receipt: null, notes: link.notes, status: 'paid' } };
    }
    if (event === 'payment_link.paid') payload.payment_link = { entity: { ...link, payments: undefined } };
    const body = JSON.stringify({ entity: 'event', account_id: 'acc_fake', event, contains: Object.keys(payload), payload, created_at: now() });
    const headers = { 'content-type': 'application/json', 'x-razorpay-signature': sign(body), 'x-razorpay-event-id': eventId };
    sent.push({ body, headers });
    if (!sink) throw new Error('the fake has nowhere to send webhooks');
    return sink(body, headers);
  }

  return {
    baseUrl,
    requests,
    sent,
    links,
    /** Razorpay down: every API call answers 503 (webhooks are the test's to send or not). */
    setDown(value: boolean) {
      down = value;
    },
    setSink(value: WebhookSink) {
      sink = value;
    },
    linkFor,
    /** The payer pays the link opened for our order `reference`; webhooks follow unless `silent`. */
    async pay(reference: string, opts: PayOptions = {}): Promise<{ paymentId: string; statuses: number[] }> {
      const link = linkFor(reference);
      const payment: LinkPayment = { payment_id: id('pay'), amount: opts.amount ?? link.amount, currency: opts.currency ?? link.currency, method: 'upi', status: 'captured', created_at: now() };
      link.payments.push(payment);
      link.amount_paid += payment.amount;
      link.status = 'paid';
      if (opts.silent) return { paymentId: payment.payment_id, statuses: [] };
      const statuses: number[] = [];
      for (const event of opts.events ?? ['payment.authorized', 'payment.captured', 'payment_link.paid']) {
        const status = event === 'payment.authorized' ? 'authorized' : event === 'payment.failed' ? 'failed' : 'captured';
        statuses.push(await send(event, link, { ...payment, status }));
      }
      return { paymentId: payment.payment_id, statuses };
    },
    send,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FakeRazorpay = Awaited<ReturnType<typeof startFakeRazorpay>>;
