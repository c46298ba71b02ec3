/** Step 2: the phone (brand, model, IMEIs checked with their check digit, serial, provisioning type). */
import { useTranslation } from 'react-i18next';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { PROVISIONING_LABEL_KEYS } from '../../../shared/labels.ts';
import { useGetBrandsQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { DeviceFields } from '../../../shared/customers/device-fields.tsx';
import type { StepProps } from './step-props.ts';
import './add-customer.css';

export function DeviceStep({ draft, update, errorOf }: StepProps) {
  const { t } = useTranslation();
  const { data: brands } = useGetBrandsQuery();
  return (
    <fieldset className="form-step">
      <legend className="visually-hidden">{t('addCustomer.steps.device')}</legend>
      <DeviceFields
        draft={draft}
        update={update}
        errorOf={errorOf}
        brandNames={(brands ?? []).map((b) => b.name)}
        onBrandChange={(brand) => {
          // iPhones are provisioned through Apple; suggest it, the retailer can still change it.
          const apple = brand.toLowerCase() === 'apple';
          update({ brand, ...(apple && draft.provisioningType === '' ? { provisioningType: String(PROVISIONING_TYPE.APPLE) } : {}) });
        }}
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
