/**
 * "I paid" and "Pay now" from the lock screen. A payment to the retailer's own UPI ID sends nothing back, so the
 * customer's word becomes a claim the retailer confirms (the ledger payment is written in the same transaction)
 * or rejects; "Pay now" asks the payment gateway for an order the phone shows as a UPI QR or link.
 */
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { ClaimDecisionBody, DeviceClaimBody, DevicePayOrder, PaymentClaimList, PaymentClaimQuery, PaymentClaimView, PaymentOrderView } from '@kisht/contract/payments';
import type { Static } from 'typebox';
import type { Notify } from '../events/events.bus.ts';
import { createNotificationsRepository } from '../notifications/notifications.repository.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { EmiService } from '../emi/emi.service.ts';
import type { OrgRepository } from '../config/org.repository.ts';
import type { DeviceRow } from '../devices/devices.repository.ts';
import type { ClaimRow, PaymentClaimsRepository } from './payment-claims.repository.ts';

/**
 * The gateway's order for what a customer owes now (modules/payments' createCustomerOrder). Injected, so this
 * module does not depend on the gateway's; without it "Pay now" answers GATEWAY_NOT_CONFIGURED.
 */
export type PayOrder = (customerId: number) => Promise<PaymentOrderView>;

export interface ClaimLimits {
  /** A press that changes the open claim waits this long after its last change (a customer tapping away). */
  claimChangeGapSeconds: number;
  /** Claims one customer may open in 24 hours, rejected ones included, so a rejected customer cannot flood the shop. */
  claimsPerDay: number;
}
export const CLAIM_LIMITS: ClaimLimits = { claimChangeGapSeconds: 10, claimsPerDay: 5 };
const PAGE_SIZE = 20;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toView = (r: ClaimRow): PaymentClaimView => ({
  id: r.id, customer_id: r.customer_id, customer_name: r.customer_name, amount_paise: r.amount_paise, reference: r.reference, status: r.status,
  created_at: r.created_at.toISOString(), decided_at: iso(r.decided_at), reason: r.reason, receipt_no: r.receipt_no,
});
/** A reason as the phone will show it: no direction-changing characters (controls are refused at the door), spaces collapsed. */
const cleanReason = (text: string | undefined) => text?.replace(/[\u202a-\u202e\u2066-\u2069]/g, '').trim().replace(/\s+/g, ' ') || null;

export function createPaymentClaimsService(deps: {
  db: Database;
  claims: PaymentClaimsRepository;
  customers: Pick<CustomersService, 'visible'>;
  emi: Pick<EmiService, 'payOldestFirstIn'>;
  orgs: Pick<OrgRepository, 'findById'>;
  notify?: Notify;
  payOrder?: PayOrder;
  /** After a confirmed claim commits: the organisation's "unlock when paid" policy looks at the customer now. */
  afterPaid?: (customerId: number) => Promise<unknown>;
  limits?: ClaimLimits;
}) {
  const { db, claims } = deps;
  const notices = createNotificationsRepository(db);
  const limits = deps.limits ?? CLAIM_LIMITS;

  async function view(id: number): Promise<PaymentClaimView> {
    return toView((await claims.byId(id))!);
  }

  return {
    /**
     * The phone's "I paid": opens the customer's claim, or folds the press into the open one (a new amount or
     * reference replaces the old; a press with nothing new answers the open claim and writes nothing).
     */
    async claim(device: DeviceRow, body: Static<typeof DeviceClaimBody>): Promise<PaymentClaimView> {
      const amount = body.amount_paise ?? null;
      const reference = body.reference ?? null;
      const { id, changed, told } = await db.transaction(async (tx): Promise<{ id: number; changed: boolean; told?: number[] }> => {
        await claims.lockCustomer(device.customer_id, tx);
        const open = await claims.open(device.customer_id, tx);
        if (open) {
          const news = (amount !== null && amount !== open.amount_paise) || (reference !== null && reference !== open.reference);
          if (!news) return { id: open.id, changed: false };
          const wait = Math.ceil(limits.claimChangeGapSeconds - open.quiet_seconds);
          if (wait > 0) throw new AppError('RATE_LIMITED', { retry_after_seconds: wait });
          await claims.press(open.id, { device_id: device.id, amount_paise: amount, reference }, tx);
          return { id: open.id, changed: true };
        }
        const recent = await claims.openedWithin(device.customer_id, 24, tx);
        if (recent.count >= limits.claimsPerDay) throw new AppError('RATE_LIMITED', { retry_after_seconds: recent.frees_in_seconds });
        const id = await claims.insert({ customer_id: device.customer_id, account_id: device.account_id, device_id: device.id, amount_paise: amount, reference }, tx);
        // A new claim waits for the shop: its bell rings (issue 14); a press folded into an open claim does not ring again.
        return { id, changed: true, told: await notices.aboutCustomer(device.customer_id, 'payment_claim', { amount_paise: amount }, tx) };
      });
      if (changed) deps.notify?.({ type: 'payment_claim', customer_ids: [device.customer_id] }); // events
      if (told?.length) deps.notify?.({ type: 'notification', user_ids: told });
      return view(id);
    },

    /** "Pay now": the gateway's order for what the customer owes now, when the organisation's gateway is on. */
    async payOrder(device: DeviceRow): Promise<DevicePayOrder> {
      const org = await deps.orgs.findById(device.org_id);
      if (!deps.payOrder || !org?.features.payment_gateway) throw new AppError('GATEWAY_NOT_CONFIGURED');
      const order = await deps.payOrder(device.customer_id);
      return { order_id: order.id, amount_paise: order.amount_paise, upi_link: order.upi_link, short_url: order.short_url };
    },

    async list(caller: RequestAuth, query: Static<typeof PaymentClaimQuery>): Promise<PaymentClaimList> {
      // One customer's claims: that customer must be the caller's, or the answer is the same 404 as for any id.
      if (query.customer_id !== undefined) await deps.customers.visible(caller, query.customer_id);
      const page = query.page ?? 1;
      const rows = await claims.list(caller, { ...(query.status ? { status: query.status } : {}), ...(query.customer_id ? { customer_id: query.customer_id } : {}) }, PAGE_SIZE, (page - 1) * PAGE_SIZE);
      return { items: rows.slice(0, PAGE_SIZE).map(toView), page, has_more: rows.length > PAGE_SIZE };
    },

    /**
     * Confirms (the payment goes into the ledger, method upi, the claim's reference, oldest due first) or rejects
     * an open claim. The claim row is locked first, so of two taps at once the second finds it decided
     * (CLAIM_DECIDED) and the ledger has the payment once; a payment the ledger refuses leaves the claim open.
     * A rejection keeps the retailer's reason: the customer's lock screen shows it at the phone's next check-in.
     */
    async decide(caller: RequestAuth, body: Static<typeof ClaimDecisionBody>): Promise<PaymentClaimView> {
      const decided = await db.transaction(async (tx) => {
        const claim = await claims.visibleForUpdate(caller, body.id, tx);
        if (!claim) throw new AppError('NOT_FOUND');
        if (claim.status !== 'open') throw new AppError('CLAIM_DECIDED');
        if (body.decision === 'reject') {
          await claims.decide(claim.id, { status: 'rejected', amount_paise: null, decided_by: caller.userId, payment_id: null, reason: cleanReason(body.reason) }, tx);
          return { claim, paid: false };
        }
        const amount = body.amount_paise ?? claim.amount_paise;
        if (amount === null) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'amount_paise', message: 'the customer did not say how much; enter the amount received', rule: 'required' }] });
        // The key ties the ledger line to this claim: even a second writer past the row lock could not pay twice.
        const paymentId = await deps.emi.payOldestFirstIn(tx, caller, claim.customer_id, amount, 'upi', claim.reference, `claim-${claim.id}`);
        await claims.decide(claim.id, { status: 'confirmed', amount_paise: amount, decided_by: caller.userId, payment_id: paymentId, reason: null }, tx);
        return { claim, paid: true };
      });
      const customerIds = [decided.claim.customer_id];
      deps.notify?.({ type: 'payment_claim', customer_ids: customerIds }); // events
      if (decided.paid) {
        deps.notify?.({ type: 'emi', customer_ids: customerIds }); // events
        // The payment is in; an unlock that fails here is the device sweep's to issue, as for any payment.
        await deps.afterPaid?.(decided.claim.customer_id).catch(() => undefined);
      }
      return view(decided.claim.id);
    },
  };
}
export type PaymentClaimsService = ReturnType<typeof createPaymentClaimsService>;
