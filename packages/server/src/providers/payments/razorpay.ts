/**
 * Razorpay, through its documented REST API (basic auth with the key id and secret, amounts in paise):
 * a UPI Payment Link (`POST /v1/payment_links`, `upi_link: true`) per order with our order id as its
 * `reference_id` and in its notes; reconciliation reads the link (`GET /v1/payment_links/:id`) and its
 * payments; webhooks carry `X-Razorpay-Signature`, the hex HMAC-SHA256 of the raw body keyed with the webhook
 * secret, and `X-Razorpay-Event-Id`.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { GatewayEvent, GatewayOrder, GatewayOrderRequest, GatewayPayment, GatewayPaymentStatus, PaymentGateway } from './payment-gateway.ts';

export interface RazorpayOptions {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

/** The note our order id travels in: Razorpay copies notes onto what it sends back. */
export const ORDER_NOTE = 'kisht_order_id';

interface Entity { id?: string; amount?: number; currency?: string; status?: string; order_id?: string | null; reference_id?: string; receipt?: string; notes?: Record<string, string> | unknown[] }
interface EventBody { event?: string; payload?: Record<string, { entity?: Entity } | undefined> }

/** Events that say money reached us; the rest only tell of an attempt. */
const STATUS_OF: Record<string, GatewayPaymentStatus> = {
  'payment.authorized': 'authorized',
  'payment.captured': 'captured',
  'payment.failed': 'failed',
  'order.paid': 'captured',
  'payment_link.paid': 'captured',
  'qr_code.credited': 'captured',
};

const noteOf = (entity: Entity | undefined): string | null => {
  const notes = entity?.notes;
  return notes && !Array.isArray(notes) && typeof notes[ORDER_NOTE] === 'string' ? notes[ORDER_NOTE] : null;
};

export function createRazorpayGateway(options: RazorpayOptions): PaymentGateway {
  const base = options.baseUrl.replace(/\/+$/, '');
  const auth = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
  const fetchImpl = options.fetchImpl ?? fetch;
  const secret = Buffer.from(options.webhookSecret);

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetchImpl(`${base}${path}`, {
      method,
      headers: { authorization: auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    // The gateway's own error text stays in our log; callers see SERVICE_UNAVAILABLE or a held order.
    if (!res.ok) throw new Error(`Razorpay ${method} ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }

  return {
    name: 'razorpay',

    async createOrder(request: GatewayOrderRequest): Promise<GatewayOrder> {
      const link = await call<{ id: string; short_url?: string; order_id?: string | null }>('POST', '/v1/payment_links', {
        upi_link: true,
        amount: request.amountPaise,
        currency: request.currency,
        accept_partial: false,
        // Razorpay takes seconds since the epoch.
        expire_by: Math.floor(request.expiresAt.getTime() / 1000),
        reference_id: request.reference,
        description: request.description.slice(0, 2048),
        ...(request.customer ? { customer: { name: request.customer.name, contact: request.customer.mobile } } : {}),
        // We send our own SMS through our queue, in the customer's language.
        notify: { sms: false, email: false },
        reminder_enable: false,
        notes: { [ORDER_NOTE]: request.reference },
      });
      return { ref: link.id, orderId: link.order_id ?? null, shortUrl: link.short_url ?? null, upiLink: null };
    },

    async payments(ref: string): Promise<GatewayPayment[]> {
      const link = await call<{ currency?: string; payments?: Array<{ payment_id: string; amount: number; status: string }> | null }>('GET', `/v1/payment_links/${encodeURIComponent(ref)}`);
      return (link.payments ?? []).map((p) => ({
        id: p.payment_id,
        amountPaise: p.amount,
        currency: link.currency ?? '',
        status: p.status === 'captured' || p.status === 'authorized' || p.status === 'failed' ? p.status : 'other',
      }));
    },

    verify(rawBody: Buffer, signature: string | undefined): boolean {
      if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
      const expected = createHmac('sha256', secret).update(rawBody).digest();
      return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
    },

    eventId(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): string {
      const header = headers['x-razorpay-event-id'];
      const id = Array.isArray(header) ? header[0] : header;
      if (id && /^[A-Za-z0-9_.:-]{1,100}$/.test(id)) return id;
      return `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
    },

    parseEvent(rawBody: Buffer | string): GatewayEvent | null {
      let body: EventBody;
      try {
        body = JSON.parse(rawBody.toString()) as EventBody;
      } catch {
        return null;
      }
      if (typeof body.event !== 'string' || !body.payload || typeof body.payload !== 'object') return null;
      const payment = body.payload.payment?.entity;
      const order = body.payload.order?.entity;
      const link = body.payload.payment_link?.entity;
      const qr = body.payload.qr_code?.entity;
      const reference = noteOf(payment) ?? noteOf(link) ?? noteOf(order) ?? noteOf(qr) ?? link?.reference_id ?? order?.receipt ?? null;
      return {
        type: body.event,
        status: STATUS_OF[body.event] ?? null,
        payment: payment && typeof payment.id === 'string' && Number.isInteger(payment.amount) && typeof payment.currency === 'string'
          ? { id: payment.id, amountPaise: payment.amount!, currency: payment.currency }
          : null,
        refs: { reference, gatewayRef: link?.id ?? qr?.id ?? null, gatewayOrderId: payment?.order_id ?? order?.id ?? null },
      };
    },
  };
}
