/** Step 2: the phone (brand, model, IMEIs checked with their check digit, serial, provisioning type). */
import { useTranslation } from 'react-i18next';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import { isValidImei } from '@kisht/domain/imei';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { PROVISIONING_LABEL_KEYS } from '../../../shared/labels.ts';
import { useGetBrandsQuery } from '../api/catalogue-api.ts';
import { digitsOnly, type StepProps } from './step-props.ts';

const IMEI_LENGTH = 15;

export function DeviceStep({ draft, update, errorOf }: StepProps) {
  const { t } = useTranslation();
  const { data: brands } = useGetBrandsQuery();
  // A full IMEI is checked as soon as it is typed, not only on Next.
  const imeiError = (field: 'imei1' | 'imei2') => {
    const value = draft[field];
    if (value.length === IMEI_LENGTH && !isValidImei(value)) return t('addCustomer.errors.imei');
    return errorOf(field);
  };
  return (
    <fieldset className="form-step">
      <legend className="visually-hidden">{t('addCustomer.steps.device')}</legend>
      <SelectField
        label={t('device.brand')}
        value={draft.brand}
        error={errorOf('brand')}
        onChange={(e) => {
          const brand = e.target.value;
          // iPhones are provisioned through Apple; suggest it, the retailer can still change it.
          const apple = brand.toLowerCase() === 'apple';
          update({ brand, ...(apple && draft.provisioningType === '' ? { provisioningType: String(PROVISIONING_TYPE.APPLE) } : {}) });
        }}
      >
        <option value="">{t('common.choose')}</option>
        {(brands ?? []).map((b) => (
          <option key={b.id} value={b.name}>
            {b.name}
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
      <SelectField label={t('device.provisioning')} value={draft.provisioningType} error={errorOf('provisioningType')} onChange={(e) => update({ provisioningType: e.target.value })}>
        <option value="">{t('common.choose')}</option>
        {Object.values(PROVISIONING_TYPE).map((code) => (
          <option key={code} value={String(code)}>
            {t(PROVISIONING_LABEL_KEYS[code]!)}
          </option>
        ))}
      </SelectField>
    </fieldset>
  );
}
