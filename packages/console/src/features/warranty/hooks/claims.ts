/**
 * Claims on an extended warranty (decision 021): the causes a plan covers, what raising one needs (the IMEI typed
 * again, a cause, a description, 1 to 5 photos), the next steps a claim may take from where it is (the domain's
 * state machine), what each move needs (a reason to reject, the assessed cost to approve) and what an approval
 * would pay, worked out with the same integer rules as the server.
 */
import type { RaiseClaimBody, TransitionClaimBody, WarrantyClaim, WarrantyRules, WarrantySale } from '@kisht/contract/warranty';
import { isValidImei } from '@kisht/domain/imei';
import { parseRupeesToPaise } from '@kisht/domain/money-input';
import {
  CLAIM_CAUSES, CLAIM_MOVES, CLAIM_PHOTOS_MAX, CLAIM_PHOTOS_MIN, claimPayout, type ClaimCause, type ClaimPayout, type ClaimState,
} from '@kisht/domain/warranty';
import { IMEI_LENGTH } from '../../../shared/customers/field-input.ts';

export { CLAIM_PHOTOS_MAX, CLAIM_PHOTOS_MIN };

export const DESCRIPTION_MAX_LENGTH = 1000;
export const REASON_MAX_LENGTH = 200;
/** The most the server takes as an assessed cost (paise). */
export const ASSESSED_COST_MAX_PAISE = 2_000_000_000;

export const CAUSE_LABEL_KEYS: Record<ClaimCause, string> = {
  defect: 'warranty.claim.cause.defect',
  accidental: 'warranty.claim.cause.accidental',
  liquid: 'warranty.claim.cause.liquid',
};

export const CLAIM_STATE_LABEL_KEYS: Record<ClaimState, string> = {
  intimated: 'warranty.claim.state.intimated',
  documents: 'warranty.claim.state.documents',
  approved: 'warranty.claim.state.approved',
  rejected: 'warranty.claim.state.rejected',
  repaired: 'warranty.claim.state.repaired',
  replaced: 'warranty.claim.state.replaced',
  settled: 'warranty.claim.state.settled',
};

export type ClaimTone = 'info' | 'success' | 'warning' | 'danger';
export const CLAIM_STATE_TONE: Record<ClaimState, ClaimTone> = {
  intimated: 'info',
  documents: 'info',
  approved: 'warning',
  rejected: 'danger',
  repaired: 'success',
  replaced: 'success',
  settled: 'success',
};

/** The button that moves a claim to a state (every state but the first). */
export const MOVE_LABEL_KEYS: Record<Exclude<ClaimState, 'intimated'>, string> = {
  documents: 'warranty.claim.move.documents',
  approved: 'warranty.claim.move.approved',
  rejected: 'warranty.claim.move.rejected',
  repaired: 'warranty.claim.move.repaired',
  replaced: 'warranty.claim.move.replaced',
  settled: 'warranty.claim.move.settled',
};

export type MoveTarget = Exclude<ClaimState, 'intimated'>;

/** The steps a claim may take from its state, in the state machine's order; none once it has ended. */
export function nextSteps(state: ClaimState): MoveTarget[] {
  return CLAIM_MOVES[state].filter((to): to is MoveTarget => to !== 'intimated');
}

/** The causes the plan covers (a claim for another cause would be refused). */
export function coveredCauses(rules: Pick<WarrantyRules, 'covers_defects' | 'covers_accidental' | 'covers_liquid'>): ClaimCause[] {
  const covered: Record<ClaimCause, boolean> = { defect: rules.covers_defects, accidental: rules.covers_accidental, liquid: rules.covers_liquid };
  return CLAIM_CAUSES.filter((cause) => covered[cause]);
}

export interface ClaimDraft {
  imei: string;
  cause: string;
  description: string;
  photoIds: number[];
}

export type ClaimField = keyof ClaimDraft;
export type ClaimErrors = Partial<Record<ClaimField, string>>;

export function validateClaim(draft: ClaimDraft, causes: readonly ClaimCause[]): ClaimErrors {
  const errors: ClaimErrors = {};
  if (!draft.imei) errors.imei = 'common.required';
  else if (draft.imei.length !== IMEI_LENGTH || !isValidImei(draft.imei)) errors.imei = 'addCustomer.errors.imei';
  if (!draft.cause) errors.cause = 'common.required';
  else if (!(causes as readonly string[]).includes(draft.cause)) errors.cause = 'errors.WARRANTY_NOT_COVERED';
  if (!draft.description.trim()) errors.description = 'common.required';
  if (draft.photoIds.length < CLAIM_PHOTOS_MIN) errors.photoIds = 'warranty.claim.photosRequired';
  return errors;
}

export function claimBody(saleId: number, draft: ClaimDraft): RaiseClaimBody {
  return { sale_id: saleId, imei: draft.imei, cause: draft.cause as ClaimCause, description: draft.description.trim(), photo_ids: [...draft.photoIds] };
}

export interface MoveDraft {
  reason: string;
  /** Rupees as typed, for an approval. */
  cost: string;
}

export type MoveErrors = Partial<Record<keyof MoveDraft, string>>;

/** The assessed cost in paise (0 is allowed: a repair that cost nothing), or null when it is not a valid amount. */
export function assessedCostPaise(text: string): number | null {
  const paise = parseRupeesToPaise(text);
  return paise !== null && paise <= ASSESSED_COST_MAX_PAISE ? paise : null;
}

export function validateMove(to: MoveTarget, draft: MoveDraft): MoveErrors {
  const errors: MoveErrors = {};
  if (to === 'rejected' && !draft.reason.trim()) errors.reason = 'common.required';
  if (to === 'approved') {
    if (!draft.cost.trim()) errors.cost = 'common.required';
    else if (assessedCostPaise(draft.cost) === null) errors.cost = 'addCustomer.errors.amount';
  }
  return errors;
}

/** The move's request: the reason (or the note of any other move) and, for an approval, the cost in paise. */
export function moveBody(claimId: number, to: MoveTarget, draft: MoveDraft): TransitionClaimBody {
  const body: TransitionClaimBody = { claim_id: claimId, to };
  const reason = draft.reason.trim();
  if (reason) body.reason = reason;
  if (to === 'approved') {
    const paise = assessedCostPaise(draft.cost);
    if (paise === null) throw new Error('moveBody needs a valid cost to approve');
    body.assessed_cost_paise = paise;
  }
  return body;
}

/** What approving the claim at this cost would pay, as the server will work it out (same rules, same claim date). */
export function payoutPreview(
  sale: Pick<WarrantySale, 'rules' | 'invoice_value_paise' | 'invoice_date'>,
  claim: Pick<WarrantyClaim, 'claim_date'>,
  costText: string,
): ClaimPayout | null {
  const paise = assessedCostPaise(costText);
  if (paise === null) return null;
  return claimPayout(sale.rules, { invoice_value_paise: sale.invoice_value_paise, assessed_cost_paise: paise, invoice_date: sale.invoice_date, claim_date: claim.claim_date });
}
