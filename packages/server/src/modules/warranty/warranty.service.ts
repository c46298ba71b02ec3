/**
 * Extended warranty (decision 021): a retailer sells a plan for one phone (its IMEI, invoice value and date) and
 * gets a certificate; the plan's rules decide when it may be sold, what it covers and what a claim pays. Each sale
 * uses one extended warranty key. Claims carry photos and move intimated -> documents -> approved or rejected ->
 * repaired, replaced or settled, each move recorded with who and when.
 */
import { randomInt } from 'node:crypto';
import { isLanguage, PRODUCT_TYPE, type Language } from '@kisht/domain/constants';
import { isValidImei } from '@kisht/domain/imei';
import { todayInIndia } from '@kisht/domain/format';
import {
  canMoveClaim, claimPayout, claimRefusal, coverPeriod, newCertificateNumber, parseCertificateNumber, rulesProblem, saleRefusal,
  type ClaimRefusal, type SaleRefusal,
} from '@kisht/domain/warranty';
import type { AntihackingSale } from '@kisht/contract/plans';
import type {
  CustomerPlans, RaiseClaimBody, SellWarrantyBody, TransitionClaimBody, WarrantyCertificate, WarrantyClaim, WarrantyListQuery, WarrantyPage,
  WarrantyPhotoStored, WarrantyPlan, WarrantySale, WarrantySold,
} from '@kisht/contract/warranty';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { ValidationRule } from '../../shared/messages.ts';
import { ownRetailerOf } from '../customers/customers.repository.ts';
import { normaliseImage, sniffImage, type FileStore } from '../documents/file-store.ts';
import type { Notify } from '../events/events.bus.ts';
import type { LicensesRepository } from '../licenses/licenses.repository.ts';
import { certificateOf } from './warranty.certificate.ts';
import { toSale, type SaleRow, type WarrantyRepository } from './warranty.repository.ts';

/** Photos that may wait for a claim on one sale (uploaded, not yet part of a claim). */
export const WAITING_PHOTOS_MAX = 10;

export interface WarrantyServiceDeps {
  db: Database;
  sales: WarrantyRepository;
  licenses: LicensesRepository;
  files: FileStore;
  /** A financed customer the caller may see, or NOT_FOUND (the customers' one visibility rule). */
  customer: (caller: RequestAuth, id: number) => Promise<{ id: number; mobile: string }>;
  /** The caller's anti-hacking sales to a mobile number (the customer details screen shows them too). */
  antihackingOf: (caller: RequestAuth, mobile: string) => Promise<AntihackingSale[]>;
  notify?: Notify;
  /** Today in India; tests may fix it. */
  today?: () => string;
}

const invalid = (field: string, message: string, rule: ValidationRule) => new AppError('VALIDATION_FAILED', { details: [{ field, message, rule }] });

function saleError(refusal: SaleRefusal): AppError {
  switch (refusal) {
    case 'invoice_date_invalid': return invalid('invoice_date', 'is not a calendar date', 'invalid');
    case 'invoice_in_future': return invalid('invoice_date', 'must not be in the future', 'not_future_date');
    case 'invoice_value': return invalid('invoice_value_paise', 'must be more than 0 and at most the highest invoice value', 'invalid');
    case 'window_closed': return new AppError('WARRANTY_PURCHASE_WINDOW_CLOSED');
  }
}

function claimError(refusal: ClaimRefusal): AppError {
  switch (refusal) {
    case 'revoked':
    case 'not_started':
    case 'ended': return new AppError('WARRANTY_NOT_IN_COVER');
    case 'imei_mismatch': return new AppError('WARRANTY_IMEI_MISMATCH');
    case 'cause_not_covered':
    case 'brand_warranty': return new AppError('WARRANTY_NOT_COVERED');
    case 'claim_limit': return new AppError('WARRANTY_CLAIM_LIMIT');
  }
}

export function createWarrantyService(deps: WarrantyServiceDeps) {
  const { db, sales, licenses, files } = deps;
  const today = deps.today ?? (() => todayInIndia());
  const told = (row: { account_id: number; retailer_id: number }) => {
    deps.notify?.({ type: 'warranty', account_id: row.account_id, retailer_id: row.retailer_id });
  };

  /** A sale the caller may see, or NOT_FOUND (also for another network's, the parent's or a sibling's). */
  async function visible(caller: RequestAuth, id: number): Promise<SaleRow> {
    const row = await sales.find(caller.accountId, ownRetailerOf(caller), id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function claimView(caller: RequestAuth, claimId: number): Promise<WarrantyClaim> {
    const row = await sales.findClaim(caller.accountId, ownRetailerOf(caller), claimId);
    if (!row) throw new AppError('NOT_FOUND');
    return (await sales.claimsOf([row.sale_id])).find((c) => c.id === claimId)!;
  }

  return {
    /** get_plans_warranty: the organisation's extended warranty plans with their rules. */
    plans: (orgId: number): Promise<WarrantyPlan[]> => sales.plans(orgId),

    /**
     * Sells a plan for one phone: the sale with its certificate number and cover, and one extended warranty key from
     * the seller's stock, in one transaction (no key, no sale). A certificate number drawn twice is drawn again.
     */
    async sell(caller: RequestAuth, body: SellWarrantyBody): Promise<WarrantySold> {
      // The customer first: another network's id is NOT_FOUND whatever else the body says.
      const customer = body.customer_id !== undefined ? await deps.customer(caller, body.customer_id) : null;
      if (!isValidImei(body.imei)) throw invalid('imei', 'is not a valid IMEI (check digit)', 'imei_invalid');
      const plan = (await sales.plans(caller.orgId, body.plan_id))[0];
      if (!plan || rulesProblem(plan.rules) !== null) throw new AppError('PLAN_NOT_AVAILABLE');
      const saleDate = today();
      const refusal = saleRefusal(plan.rules, body, saleDate);
      if (refusal) throw saleError(refusal);
      const cover = coverPeriod(plan.rules, body.invoice_date, saleDate);
      for (let attempt = 0; ; attempt++) {
        const certificate = newCertificateNumber(Number(saleDate.slice(0, 4)), (size) => randomInt(size));
        try {
          const { id, left } = await db.transaction(async (tx) => {
            const saleId = await sales.insertSale({
              org_id: caller.orgId, account_id: caller.accountId, retailer_id: caller.userId, plan_id: plan.id, plan_name: plan.name, price_paise: plan.price_paise,
              rules: plan.rules, customer_id: customer?.id ?? null, first_name: body.first_name.trim(), last_name: body.last_name.trim(),
              email: body.email?.trim() || null, mobile: body.mobile, imei: body.imei, brand: body.brand.trim(), model: body.model.trim(),
              invoice_value_paise: body.invoice_value_paise, invoice_date: body.invoice_date, sale_date: saleDate, certificate_no: certificate,
              cover_start: cover.start, cover_end: cover.end,
            }, tx);
            const keysLeft = await licenses.consumeForSale(caller.userId, PRODUCT_TYPE.EXTENDED_WARRANTY, { kind: 'warranty', id: saleId }, tx);
            if (keysLeft === null) throw new AppError('NO_LICENSE_KEY');
            return { id: saleId, left: keysLeft };
          });
          const row = await visible(caller, id);
          told(row);
          deps.notify?.({ type: 'network', user_ids: [caller.userId] }); // one key fewer
          return { ...toSale(row), keys_left: left };
        } catch (error) {
          if (attempt < 3 && isUniqueViolation(error)) continue;
          throw error;
        }
      }
    },

    async list(caller: RequestAuth, query: WarrantyListQuery): Promise<WarrantyPage> {
      const page = query.page ?? 1;
      const limit = query.limit ?? 20;
      const certificate = query.search ? parseCertificateNumber(query.search) : null;
      const { rows, total } = await sales.list(caller.accountId, ownRetailerOf(caller), { ...query, page, limit }, certificate);
      return { total, page, limit, items: rows.map(toSale) };
    },

    async get(caller: RequestAuth, id: number): Promise<WarrantySale> {
      return toSale(await visible(caller, id));
    },

    /**
     * Revokes a sale (sold by mistake, refunded): no claim may be raised on it any more (one already raised goes on
     * to its end). The key goes back to the seller only if no claim was ever raised on it. Revoking again changes
     * nothing.
     */
    async revoke(caller: RequestAuth, id: number, reason: string): Promise<WarrantySale> {
      const row = await visible(caller, id);
      const released = await db.transaction(async (tx) => {
        const before = await sales.lockSale(row.id, tx);
        if (!(await sales.revoke(row.id, caller.userId, reason.trim(), tx)) || before.claims_ever > 0) return null;
        return licenses.releaseSale({ kind: 'warranty', id: row.id }, tx);
      });
      told(row);
      if (released) deps.notify?.({ type: 'network', user_ids: [released.userId] });
      return toSale(await visible(caller, id));
    },

    /** The certificate's fields and wording in `lng`, else the linked customer's language, else the caller's. */
    async certificate(caller: RequestAuth, id: number, lng: Language | undefined, callerLanguage: Language): Promise<WarrantyCertificate> {
      const row = await visible(caller, id);
      const language = lng ?? (isLanguage(row.customer_language) ? row.customer_language : callerLanguage);
      return certificateOf(row, toSale(row), language);
    },

    /**
     * A photo of the damaged phone for a claim on this sale: sniffed, decoded and encoded again like every upload
     * (a file that only claims to be an image is refused), stored under a generated name until a claim takes it.
     */
    async storePhoto(caller: RequestAuth, saleId: number, bytes: Buffer): Promise<WarrantyPhotoStored> {
      const sale = await visible(caller, saleId);
      const kind = sniffImage(bytes);
      if (!kind) throw new AppError('UNSUPPORTED_FILE');
      const image = await normaliseImage(bytes, kind, 'warranty_photo');
      if (!image.ok) throw new AppError(image.reason === 'too_large' ? 'IMAGE_TOO_LARGE' : 'IMAGE_INVALID');
      const relative = await files.save(sale.org_id, sale.id, 'warranty_photo', kind, image.bytes);
      try {
        const photoId = await db.transaction(async (tx) => {
          await sales.lockSale(sale.id, tx);
          if ((await sales.waitingPhotos(sale.id, tx)) >= WAITING_PHOTOS_MAX) throw new AppError('WARRANTY_PHOTO_LIMIT');
          return sales.insertPhoto({ sale_id: sale.id, path: relative, content_type: kind.contentType, bytes: image.bytes.length, uploaded_by: caller.userId }, tx);
        });
        return { photo_id: photoId, sale_id: sale.id, content_type: kind.contentType, bytes: image.bytes.length };
      } catch (error) {
        await files.remove(relative); // nothing points at it: leave no stray file behind
        throw error;
      }
    },

    async readPhoto(caller: RequestAuth, photoId: number): Promise<{ contentType: string; bytes: Buffer }> {
      const photo = await sales.photo(caller.accountId, ownRetailerOf(caller), photoId);
      if (!photo) throw new AppError('NOT_FOUND');
      const bytes = await files.read(photo.path).catch(() => null);
      const kind = bytes ? sniffImage(bytes) : null;
      if (!bytes || !kind) throw new AppError('NOT_FOUND');
      return { contentType: kind.contentType, bytes };
    },

    /**
     * Raises a claim on a sale, dated today: refused when the cover has not started or has ended or the plan was
     * revoked, for another phone, for a cause the plan does not cover, or over the plan's claims. The sale is locked
     * while its claims are counted, so two claims at once cannot both take the last one.
     */
    async raiseClaim(caller: RequestAuth, body: RaiseClaimBody): Promise<WarrantyClaim> {
      const sale = await visible(caller, body.sale_id);
      const date = today();
      const claimId = await db.transaction(async (tx) => {
        const locked = await sales.lockSale(sale.id, tx);
        const refusal = claimRefusal(
          { rules: sale.rules, invoice_date: sale.invoice_date, cover_start: sale.cover_start, cover_end: sale.cover_end, imei: sale.imei, revoked: locked.revoked, claims_so_far: locked.claims_used },
          { imei: body.imei, cause: body.cause, date },
        );
        if (refusal) throw claimError(refusal);
        const free = await sales.freePhotos(sale.id, body.photo_ids, tx);
        const missing = body.photo_ids.findIndex((id) => !free.includes(id));
        if (missing >= 0) throw invalid(`photo_ids.${missing}`, 'is not a photo of this sale waiting for a claim', 'photo_unavailable');
        return sales.insertClaim({ sale_id: sale.id, cause: body.cause, imei: body.imei, description: body.description.trim(), claim_date: date, raised_by: caller.userId }, body.photo_ids, tx);
      });
      told(sale);
      return claimView(caller, claimId);
    },

    async claims(caller: RequestAuth, saleId: number): Promise<WarrantyClaim[]> {
      const sale = await visible(caller, saleId);
      return sales.claimsOf([sale.id]);
    },

    /**
     * Moves a claim one step: a rejection needs a reason; an approval needs the assessed cost, and works out what the
     * claim pays (the cost capped at the cover limit, less the deductible for the phone's age at the claim date).
     * The claim is locked for the move, so two moves at once cannot both start from the same state.
     */
    async transition(caller: RequestAuth, body: TransitionClaimBody): Promise<WarrantyClaim> {
      const claim = await sales.findClaim(caller.accountId, ownRetailerOf(caller), body.claim_id);
      if (!claim) throw new AppError('NOT_FOUND');
      const reason = body.reason?.trim() || null;
      if (body.to === 'rejected' && !reason) throw invalid('reason', 'is required to reject a claim', 'required');
      if (body.to === 'approved' && body.assessed_cost_paise === undefined) throw invalid('assessed_cost_paise', 'is required to approve a claim', 'required');
      const sale = await visible(caller, claim.sale_id);
      await db.transaction(async (tx) => {
        const from = await sales.lockClaim(claim.id, tx);
        if (!canMoveClaim(from, body.to)) throw new AppError('WARRANTY_CLAIM_STATE');
        const payout = body.to === 'approved'
          ? {
            assessed_cost_paise: body.assessed_cost_paise!,
            ...claimPayout(sale.rules, { invoice_value_paise: sale.invoice_value_paise, assessed_cost_paise: body.assessed_cost_paise!, invoice_date: sale.invoice_date, claim_date: claim.claim_date }),
          }
          : null;
        await sales.moveClaim(claim.id, { from, to: body.to, by: caller.userId, note: reason, payout }, tx);
      });
      told(sale);
      return claimView(caller, claim.id);
    },

    /** A financed customer's plans: warranty sales linked to it or sold to its mobile, with their claims, and its anti-hacking plans. */
    async customerPlans(caller: RequestAuth, customerId: number): Promise<CustomerPlans> {
      const customer = await deps.customer(caller, customerId);
      const rows = await sales.ofCustomer(caller.accountId, ownRetailerOf(caller), customer.id, customer.mobile);
      const claims = await sales.claimsOf(rows.map((r) => r.id));
      return {
        warranty: rows.map((row) => ({ ...toSale(row), claims: claims.filter((c) => c.sale_id === row.id) })),
        antihacking: await deps.antihackingOf(caller, customer.mobile),
      };
    },
  };
}
export type WarrantyService = ReturnType<typeof createWarrantyService>;
