/** Step 1: who the customer is (name, mobile with +91, contact, address, identity document). */
import { useTranslation } from 'react-i18next';
import { ID_TYPES, type IdType } from '@kisht/domain/identity';
import { todayInIndia } from '@kisht/domain/format';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { ID_TYPE_LABEL_KEYS } from '../../../shared/labels.ts';
import { useGetCitiesQuery, useGetCountriesQuery, useGetStatesQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { digitsOnly } from '../../../shared/customers/field-input.ts';
import { PersonFields } from '../../../shared/customers/person-fields.tsx';
import type { StepProps } from './step-props.ts';
import './add-customer.css';

export function CustomerStep({ draft, update, errorOf }: StepProps) {
  const { t } = useTranslation();
  const optional = (label: string) => t('common.optionalLabel', { label });
  const { data: countries } = useGetCountriesQuery();
  // Customers are in India: the first (and only) country the server lists.
  const countryId = countries?.[0]?.id;
  const { data: states } = useGetStatesQuery(countryId ?? 0, { skip: countryId === undefined });
  const stateId = draft.stateId ? Number(draft.stateId) : null;
  const { data: cities } = useGetCitiesQuery(stateId ?? 0, { skip: stateId === null });

  return (
    <fieldset className="form-step">
      <legend className="visually-hidden">{t('addCustomer.steps.customer')}</legend>
      <PersonFields draft={draft} update={update} errorOf={errorOf} />
      <TextField
        label={optional(t('addCustomer.dateOfBirth'))}
        type="date"
        max={todayInIndia()}
        value={draft.dateOfBirth}
        error={errorOf('dateOfBirth')}
        onChange={(e) => update({ dateOfBirth: e.target.value })}
      />
      <TextField label={optional(t('addCustomer.address'))} autoComplete="off" maxLength={300} value={draft.address} error={errorOf('address')} onChange={(e) => update({ address: e.target.value })} />
      <SelectField label={optional(t('addCustomer.state'))} value={draft.stateId} error={errorOf('stateId')} onChange={(e) => update({ stateId: e.target.value, cityId: '' })}>
        <option value="">{t('common.choose')}</option>
        {(states ?? []).map((s) => (
          <option key={s.id} value={String(s.id)}>
            {s.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={optional(t('addCustomer.city'))} value={draft.cityId} disabled={!draft.stateId} error={errorOf('cityId')} onChange={(e) => update({ cityId: e.target.value })}>
        <option value="">{draft.stateId ? t('common.choose') : t('addCustomer.chooseStateFirst')}</option>
        {(cities ?? []).map((c) => (
          <option key={c.id} value={String(c.id)}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <TextField label={optional(t('addCustomer.pincode'))} inputMode="numeric" maxLength={6} value={draft.pincode} error={errorOf('pincode')} onChange={(e) => update({ pincode: digitsOnly(e.target.value, 6) })} />
      <SelectField label={optional(t('addCustomer.idType'))} value={draft.idType} error={errorOf('idType')} onChange={(e) => update({ idType: e.target.value as IdType | '' })}>
        <option value="">{t('common.none')}</option>
        {ID_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(ID_TYPE_LABEL_KEYS[type])}
          </option>
        ))}
      </SelectField>
      {draft.idType ? (
        <TextField
          label={t('addCustomer.idNumber')}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={20}
          value={draft.idNumber}
          error={errorOf('idNumber')}
          hint={t('addCustomer.idNumberHint')}
          onChange={(e) => update({ idNumber: e.target.value.toUpperCase() })}
        />
      ) : null}
    </fieldset>
  );
}
