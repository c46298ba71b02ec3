/** The EMI add/edit screen's dialogs: edit an instalment (due date, amount, why), add one, charge a penalty on one or waive one. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InstalmentView } from '@kisht/contract/emi';
import { formatRupees } from '@kisht/domain/money';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { paiseToRupeesText } from '@kisht/domain/money-input';
import { useAddInstalmentMutation, useSendPenaltyMutation, useUpdateInstalmentMutation } from '../api/emi-edit-api.ts';
import { useWaivePenaltyMutation } from '../api/ledger-api.ts';
import {
  checkInstalmentEdit,
  checkNewInstalment,
  checkPenalty,
  checkWaiver,
  placeServerDetails,
  REASON_MAX,
  unpaidPenaltyAtMost,
  type FormError,
  type InstalmentDraft,
  type PenaltyDraft,
  type WaiveDraft,
} from '../hooks/instalment-edit.ts';

type Errors<F extends string> = Partial<Record<F, string>>;

/** Draft, field errors (translated or the server's text) and the save flow shared by the four forms. */
function useForm<F extends string>(initial: Record<F, string>, serverFields: Record<string, F>) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Errors<F>>({});
  const update = (field: F, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const showChecks = (found: Partial<Record<F, FormError>>) =>
    setErrors(Object.fromEntries(Object.entries(found).map(([field, e]) => [field, t((e as FormError).key, (e as FormError).vars)])) as Errors<F>);
  const placeFailure = (failure: unknown) => {
    if (isApiFailure(failure) && failure.code === 'VALIDATION_FAILED' && failure.details) setErrors(placeServerDetails(failure.details, serverFields));
  };
  return { draft, update, errors, showChecks, placeFailure };
}

const INSTALMENT_FIELDS: Record<string, keyof InstalmentDraft> = { due_date: 'dueDate', amount_paise: 'amount', reason: 'reason' };
const PENALTY_FIELDS: Record<string, keyof PenaltyDraft> = { amount_paise: 'amount', reason: 'reason' };
const WAIVE_FIELDS: Record<string, keyof WaiveDraft> = { amount_paise: 'amount', reason: 'reason' };

/** Edits one instalment (instalment given) or adds a new one (none given). */
export function InstalmentDialog({ customerId, instalment, onClose }: { customerId: number; instalment: InstalmentView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<keyof InstalmentDraft>(
    { dueDate: instalment?.due_date ?? '', amount: instalment ? paiseToRupeesText(instalment.amount_paise) : '', reason: '' },
    INSTALMENT_FIELDS,
  );
  const [edit, edited] = useUpdateInstalmentMutation();
  const [add, added] = useAddInstalmentMutation();

  async function save(): Promise<void> {
    if (instalment) {
      const checked = checkInstalmentEdit(customerId, instalment, form.draft);
      if (!checked.ok) return form.showChecks(checked.errors);
      // Nothing changed: nothing to send.
      if (checked.body.due_date !== undefined || checked.body.amount_paise !== undefined) await edit(checked.body).unwrap();
    } else {
      const checked = checkNewInstalment(customerId, form.draft);
      if (!checked.ok) return form.showChecks(checked.errors);
      await add(checked.body).unwrap();
    }
    onClose();
  }

  async function submit() {
    try {
      await save();
    } catch (failure) {
      form.placeFailure(failure);
    }
  }

  return (
    <FormDialog
      title={instalment ? t('emiEdit.editTitle', { number: instalment.number }) : t('emiEdit.add')}
      busy={edited.isLoading || added.isLoading}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <TextField label={t('emi.table.dueDate')} type="date" value={form.draft.dueDate} error={form.errors.dueDate} onChange={(e) => form.update('dueDate', e.target.value)} />
      <TextField
        label={t('emi.table.amount')}
        prefix="₹"
        inputMode="decimal"
        value={form.draft.amount}
        error={form.errors.amount}
        hint={instalment && instalment.paid_paise > 0 ? t('emiEdit.paidSoFar', { amount: formatRupees(instalment.paid_paise) }) : undefined}
        onChange={(e) => form.update('amount', e.target.value)}
      />
      <TextField
        label={t('common.optionalLabel', { label: t('emiEdit.reason') })}
        maxLength={REASON_MAX}
        value={form.draft.reason}
        error={form.errors.reason}
        hint={t('ledger.reasonHint')}
        onChange={(e) => form.update('reason', e.target.value)}
      />
    </FormDialog>
  );
}

export function PenaltyDialog({ customerId, instalment, onClose }: { customerId: number; instalment: InstalmentView; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<keyof PenaltyDraft>({ amount: '', reason: '' }, PENALTY_FIELDS);
  const [send, { isLoading }] = useSendPenaltyMutation();

  async function submit() {
    const checked = checkPenalty(customerId, instalment, form.draft);
    if (!checked.ok) return form.showChecks(checked.errors);
    try {
      await send(checked.body).unwrap();
      onClose();
    } catch (failure) {
      form.placeFailure(failure);
    }
  }

  return (
    <FormDialog title={t('emiEdit.penaltyTitle', { number: instalment.number })} busy={isLoading} onClose={onClose} onSubmit={() => void submit()}>
      <TextField label={t('emi.table.amount')} prefix="₹" inputMode="decimal" value={form.draft.amount} error={form.errors.amount} onChange={(e) => form.update('amount', e.target.value)} />
      <TextField label={t('emiEdit.reason')} maxLength={REASON_MAX} value={form.draft.reason} error={form.errors.reason} onChange={(e) => form.update('reason', e.target.value)} />
    </FormDialog>
  );
}

/** Takes part or all of an instalment's unpaid penalty off, with a reason (the charge itself stays on the statement). */
export function WaiveDialog({ customerId, instalment, onClose }: { customerId: number; instalment: InstalmentView; onClose: () => void }) {
  const { t } = useTranslation();
  const most = unpaidPenaltyAtMost(instalment);
  const form = useForm<keyof WaiveDraft>({ amount: paiseToRupeesText(most), reason: '' }, WAIVE_FIELDS);
  const [waive, { isLoading }] = useWaivePenaltyMutation();

  async function submit() {
    const checked = checkWaiver(customerId, instalment, form.draft);
    if (!checked.ok) return form.showChecks(checked.errors);
    try {
      await waive(checked.body).unwrap();
      onClose();
    } catch (failure) {
      form.placeFailure(failure);
    }
  }

  return (
    <FormDialog title={t('ledger.waive.title', { number: instalment.number })} busy={isLoading} onClose={onClose} onSubmit={() => void submit()} submitLabel={t('ledger.waive.submit')}>
      <TextField
        label={t('ledger.waive.amount')}
        prefix="₹"
        inputMode="decimal"
        value={form.draft.amount}
        error={form.errors.amount}
        hint={t('ledger.waive.amountHint', { amount: formatRupees(most) })}
        onChange={(e) => form.update('amount', e.target.value)}
      />
      <TextField label={t('ledger.waive.reason')} maxLength={REASON_MAX} value={form.draft.reason} error={form.errors.reason} onChange={(e) => form.update('reason', e.target.value)} />
    </FormDialog>
  );
}
