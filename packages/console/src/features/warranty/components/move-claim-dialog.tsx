/**
 * Moving a claim one step: rejecting needs a reason, approving needs the assessed repair cost (with what it would pay,
 * worked out as the server will); any other step takes an optional note. The server's refusal (the claim moved
 * elsewhere meanwhile) is its message.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WarrantyClaim, WarrantySale } from '@kisht/contract/warranty';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { RupeeField } from '../../../shared/ui/rupee-field.tsx';
import { useTransitionClaimMutation } from '../api/warranty-api.ts';
import {
  CAUSE_LABEL_KEYS,
  CLAIM_STATE_LABEL_KEYS,
  MOVE_LABEL_KEYS,
  moveBody,
  payoutPreview,
  REASON_MAX_LENGTH,
  validateMove,
  type MoveDraft,
  type MoveErrors,
  type MoveTarget,
} from '../hooks/claims.ts';

export function MoveClaimDialog({ sale, claim, to, onClose }: { sale: WarrantySale; claim: WarrantyClaim; to: MoveTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<MoveDraft>({ reason: '', cost: '' });
  const [errors, setErrors] = useState<MoveErrors>({});
  const [move, { isLoading }] = useTransitionClaimMutation();
  const preview = to === 'approved' ? payoutPreview(sale, claim, draft.cost) : null;

  function update(patch: Partial<MoveDraft>) {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors({});
  }

  async function submit() {
    const found = validateMove(to, draft);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[role="dialog"] [aria-invalid="true"]')?.focus());
      return;
    }
    try {
      // "Claim updated." is the toast; the claim shows its new state, and an approval what it pays.
      await move(moveBody(claim.id, to, draft)).unwrap();
      onClose();
    } catch {
      // The failure's message is already a toast; the dialog stays for another try.
    }
  }

  return (
    <FormDialog title={t(MOVE_LABEL_KEYS[to])} busy={isLoading} onClose={onClose} onSubmit={() => void submit()} submitLabel={t(MOVE_LABEL_KEYS[to])}>
      <p className="warranty-dialog__for">
        {t('warranty.claim.moveFrom', { cause: t(CAUSE_LABEL_KEYS[claim.cause]), date: formatDate(claim.claim_date), state: t(CLAIM_STATE_LABEL_KEYS[claim.state]) })}
      </p>
      {to === 'approved' ? (
        <RupeeField
          label={t('warranty.claim.assessedCost')}
          value={draft.cost}
          error={errors.cost ? t(errors.cost) : null}
          hint={
            preview
              ? t('warranty.claim.payablePreview', { payable: formatRupees(preview.payable_paise), deductible: formatRupees(preview.deductible_paise), limit: formatRupees(preview.cover_limit_paise) })
              : t('warranty.claim.assessedHint')
          }
          onChange={(text) => update({ cost: text })}
        />
      ) : null}
      <TextField
        label={to === 'rejected' ? t('warranty.claim.reason') : t('common.optionalLabel', { label: t('warranty.claim.note') })}
        autoComplete="off"
        maxLength={REASON_MAX_LENGTH}
        value={draft.reason}
        error={errors.reason ? t(errors.reason) : null}
        onChange={(event) => update({ reason: event.target.value })}
      />
    </FormDialog>
  );
}
