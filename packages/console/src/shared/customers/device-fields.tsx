/** A phone's brand, model, IMEIs (checked with their check digit as soon as one is complete) and serial. */
import { useTranslation } from 'react-i18next';
import { isValidImei } from '@kisht/domain/imei';
import { TextField } from '../ui/text-field.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { digitsOnly, IMEI_LENGTH } from './field-input.ts';

export interface DeviceDraft {
  brand: string;
  model: string;
  imei1: string;
  imei2: string;
  serial: string;
}

export interface DeviceFieldsProps {
  draft: DeviceDraft;
  update: (patch: Partial<DeviceDraft>) => void;
  errorOf: (field: keyof DeviceDraft) => string | null;
  /** The brand names to choose from. */
  brandNames: readonly string[];
  /** A brand was chosen; by default it is simply stored. */
  onBrandChange?: (brand: string) => void;
}

export function DeviceFields({ draft, update, errorOf, brandNames, onBrandChange }: DeviceFieldsProps) {
  const { t } = useTranslation();
  // A full IMEI is checked as soon as it is typed, not only on save.
  const imeiError = (field: 'imei1' | 'imei2') =>
    draft[field].length === IMEI_LENGTH && !isValidImei(draft[field]) ? t('addCustomer.errors.imei') : errorOf(field);
  return (
    <>
      <SelectField
        label={t('device.brand')}
        value={draft.brand}
        error={errorOf('brand')}
        onChange={(e) => (onBrandChange ? onBrandChange(e.target.value) : update({ brand: e.target.value }))}
      >
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
    </>
  );
}
