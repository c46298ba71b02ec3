/**
 * The customer edits: the device registration (IMEI_EDIT: brand, model, IMEIs, serial) and the
 * personal details. Both reuse the add-customer fields and checks; the server's field complaints
 * land next to the fields, the toast says the rest. The profile refetches through its cache tag.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerProfile } from '@kisht/server/contract/customers';
import { COUNTRY_PREFIX } from '@kisht/domain/constants';
import { todayInIndia } from '@kisht/domain/format';
import { isValidImei } from '@kisht/domain/imei';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { fieldErrorsFromServer, type FieldErrors, type FormField } from '../../add-customer/hooks/enrol-form.ts';
import { digitsOnly, localMobile } from '../../add-customer/components/step-props.ts';
import { useGetBrandsQuery } from '../../add-customer/api/catalogue-api.ts';
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

const IMEI_LENGTH = 15;

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
  return { draft, update, errors, setErrors, errorOf, placeFailure };
}

function EditDialog({ title, busy, onClose, onSubmit, children }: { title: string; busy: boolean; onClose: () => void; onSubmit: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <Dialog open title={title} onClose={onClose}>
      <form className="form" noValidate onSubmit={submit}>
        {children}
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('customerEdit.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function ImeiEditDialog({ profile, onClose }: { profile: CustomerProfile; onClose: () => void }) {
  const { t } = useTranslation();
  const { draft, update, setErrors, errorOf, placeFailure } = useEditForm<RegistrationDraft>(registrationDraftFrom(profile));
  const { data: brands } = useGetBrandsQuery();
  const [save, { isLoading }] = useUpdateRegistrationMutation();
  const brandNames = (brands ?? []).map((b) => b.name);
  if (draft.brand && !brandNames.includes(draft.brand)) brandNames.unshift(draft.brand);

  // A full IMEI is checked as soon as it is typed.
  const imeiError = (field: 'imei1' | 'imei2') =>
    draft[field].length === IMEI_LENGTH && !isValidImei(draft[field]) ? t('addCustomer.errors.imei') : errorOf(field);

  async function submit() {
    const found = validateRegistration(draft);
    if (Object.keys(found).length > 0) return setErrors(found);
    const body = buildRegistrationBody(profile, draft);
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

  return (
    <EditDialog title={t('customerEdit.imeiTitle')} busy={isLoading} onClose={onClose} onSubmit={() => void submit()}>
      <SelectField label={t('device.brand')} value={draft.brand} error={errorOf('brand')} onChange={(e) => update({ brand: e.target.value })}>
        <option value="">{t('common.choose')}</option>
        {brandNames.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      <TextField label={t('device.model')} autoComplete="off" maxLength={60} value={draft.model} error={errorOf('model')} onChange={(e) => update({ model: e.target.value })} />
      <TextField
        label={t('device.imei1')}
        inputMode="numeric"
        autoComplete="off"
        maxLength={IMEI_LENGTH}
        value={draft.imei1}
        error={imeiError('imei1')}
        hint={t('addCustomer.imeiHint')}
        onChange={(e) => update({ imei1: digitsOnly(e.target.value, IMEI_LENGTH) })}
      />
      <TextField
        label={t('common.optionalLabel', { label: t('device.imei2') })}
        inputMode="numeric"
        autoComplete="off"
        maxLength={IMEI_LENGTH}
        value={draft.imei2}
        error={imeiError('imei2')}
        onChange={(e) => update({ imei2: digitsOnly(e.target.value, IMEI_LENGTH) })}
      />
      <TextField
        label={t('common.optionalLabel', { label: t('device.serial') })}
        autoComplete="off"
        maxLength={40}
        value={draft.serial}
        error={errorOf('serial')}
        onChange={(e) => update({ serial: e.target.value })}
      />
    </EditDialog>
  );
}

export function DetailsEditDialog({ profile, onClose }: { profile: CustomerProfile; onClose: () => void }) {
  const { t } = useTranslation();
  const optional = (label: string) => t('common.optionalLabel', { label });
  const { draft, update, setErrors, errorOf, placeFailure } = useEditForm<DetailsDraft>(detailsDraftFrom(profile));
  const [save, { isLoading }] = useUpdateCustomerDetailsMutation();
  const today = todayInIndia();

  async function submit() {
    const found = validateDetails(draft, today);
    if (Object.keys(found).length > 0) return setErrors(found);
    const body = buildDetailsBody(profile, draft);
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

  return (
    <EditDialog title={t('customerEdit.detailsTitle')} busy={isLoading} onClose={onClose} onSubmit={() => void submit()}>
      <TextField label={t('addCustomer.firstName')} autoComplete="off" maxLength={60} value={draft.firstName} error={errorOf('firstName')} onChange={(e) => update({ firstName: e.target.value })} />
      <TextField label={t('addCustomer.lastName')} autoComplete="off" maxLength={60} value={draft.lastName} error={errorOf('lastName')} onChange={(e) => update({ lastName: e.target.value })} />
      <TextField
        label={t('addCustomer.mobile')}
        prefix={COUNTRY_PREFIX}
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        maxLength={14}
        value={draft.mobile}
        error={errorOf('mobile')}
        onChange={(e) => update({ mobile: localMobile(e.target.value) })}
      />
      <TextField
        label={optional(t('addCustomer.altMobile'))}
        prefix={COUNTRY_PREFIX}
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        maxLength={14}
        value={draft.altMobile}
        error={errorOf('altMobile')}
        onChange={(e) => update({ altMobile: localMobile(e.target.value) })}
      />
      <TextField label={optional(t('addCustomer.email'))} type="email" inputMode="email" autoComplete="off" maxLength={120} value={draft.email} error={errorOf('email')} onChange={(e) => update({ email: e.target.value })} />
      <TextField label={optional(t('addCustomer.address'))} autoComplete="off" maxLength={300} value={draft.address} error={errorOf('address')} onChange={(e) => update({ address: e.target.value })} />
      <TextField
        label={optional(t('addCustomer.dateOfBirth'))}
        type="date"
        max={today}
        value={draft.dateOfBirth}
        error={errorOf('dateOfBirth')}
        onChange={(e) => update({ dateOfBirth: e.target.value })}
      />
    </EditDialog>
  );
}
