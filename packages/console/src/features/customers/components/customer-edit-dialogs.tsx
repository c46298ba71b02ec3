/**
 * The customer edits: the device registration (IMEI_EDIT: brand, model, IMEIs, serial) and the
 * personal details. Both reuse the add-customer fields and checks; the server's field complaints
 * land next to the fields, the toast says the rest. The profile refetches through its cache tag.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerProfile } from '@kisht/contract/customers';
import { todayInIndia } from '@kisht/domain/format';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { DeviceFields } from '../../../shared/customers/device-fields.tsx';
import { PersonFields } from '../../../shared/customers/person-fields.tsx';
import { fieldErrorsFromServer, type FieldErrors, type FormField } from '../../../shared/customers/customer-form.ts';
import { useGetBrandsQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { useUpdateCustomerDetailsMutation, useUpdateRegistrationMutation } from '../api/customer-edit-api.ts';
import {
  buildDetailsBody,
  buildRegistrationBody,
  detailsDraftFrom,
  registrationDraftFrom,
  validateDetails,
  validateRegistration,
  type DetailsDraft,
  type RegistrationDraft,
} from '../hooks/customer-edit.ts';

/** Draft state with field errors that clear as the field changes. */
function useEditForm<D extends object>(initial: D) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  function update(patch: Partial<D>) {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as FormField];
      return next;
    });
  }
  function errorOf(field: FormField): string | null {
    const error = errors[field];
    if (!error) return null;
    return 'text' in error ? error.text : t(error.key, error.vars);
  }
  /** Field complaints from a failed save; anything else was already toasted. */
  function placeFailure(failure: unknown) {
    if (!isApiFailure(failure)) return;
    if (failure.code === 'VALIDATION_FAILED' && failure.details) setErrors(fieldErrorsFromServer(failure.details).errors);
    else if (failure.code === 'IMEI_IN_USE') setErrors({ imei1: { key: 'errors.IMEI_IN_USE' } });
  }
  /**
   * Shows the draft's complaints, or sends the body built from it and closes; nothing changed just closes.
   * The check's complaints, and the server's, stay next to the fields.
   */
  async function submitWith<B>(found: FieldErrors, build: () => B | null, save: (body: B) => { unwrap: () => Promise<unknown> }, onClose: () => void) {
    if (Object.keys(found).length > 0) return setErrors(found);
    const body = build();
    if (!body) {
      toastKey('info', 'customerEdit.noChanges');
      return onClose();
    }
    try {
      await save(body).unwrap();
      onClose();
    } catch (failure) {
      placeFailure(failure);
    }
  }
  return { draft, update, errors, setErrors, errorOf, placeFailure, submitWith };
}

export function ImeiEditDialog({ profile, onClose }: { profile: CustomerProfile; onClose: () => void }) {
  const { t } = useTranslation();
  const { draft, update, errorOf, submitWith } = useEditForm<RegistrationDraft>(registrationDraftFrom(profile));
  const { data: brands } = useGetBrandsQuery();
  const [save, { isLoading }] = useUpdateRegistrationMutation();
  const brandNames = (brands ?? []).map((b) => b.name);
  if (draft.brand && !brandNames.includes(draft.brand)) brandNames.unshift(draft.brand);

  const submit = () => submitWith(validateRegistration(draft), () => buildRegistrationBody(profile, draft), save, onClose);

  return (
    <FormDialog title={t('customerEdit.imeiTitle')} busy={isLoading} onClose={onClose} onSubmit={() => void submit()}>
      <DeviceFields draft={draft} update={update} errorOf={errorOf} brandNames={brandNames} />
    </FormDialog>
  );
}

export function DetailsEditDialog({ profile, onClose }: { profile: CustomerProfile; onClose: () => void }) {
  const { t } = useTranslation();
  const optional = (label: string) => t('common.optionalLabel', { label });
  const { draft, update, errorOf, submitWith } = useEditForm<DetailsDraft>(detailsDraftFrom(profile));
  const [save, { isLoading }] = useUpdateCustomerDetailsMutation();
  const today = todayInIndia();

  const submit = () => submitWith(validateDetails(draft, today), () => buildDetailsBody(profile, draft), save, onClose);

  return (
    <FormDialog title={t('customerEdit.detailsTitle')} busy={isLoading} onClose={onClose} onSubmit={() => void submit()}>
      <PersonFields draft={draft} update={update} errorOf={errorOf} />
      <TextField label={optional(t('addCustomer.address'))} autoComplete="off" maxLength={300} value={draft.address} error={errorOf('address')} onChange={(e) => update({ address: e.target.value })} />
      <TextField
        label={optional(t('addCustomer.dateOfBirth'))}
        type="date"
        max={today}
        value={draft.dateOfBirth}
        error={errorOf('dateOfBirth')}
        onChange={(e) => update({ dateOfBirth: e.target.value })}
      />
    </FormDialog>
  );
}
