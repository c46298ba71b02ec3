/** Step 4: the customer's photo, the customer's signature and (when switched on) the witness's, then a summary. */
import { useTranslation } from 'react-i18next';
import { formatRupees } from '@kisht/domain/money';
import { PhotoInput, type PickedImage } from '../../../shared/ui/photo-input.tsx';
import { SignaturePad } from '../../../shared/ui/signature-pad.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import type { EnrolDraft, FormField } from '../../../shared/customers/customer-form.ts';
import './add-customer.css';

export interface EnrolImages {
  photo: PickedImage | null;
  signature: Blob | null;
  witnessSignature: Blob | null;
}

export interface ImagesStepProps {
  draft: EnrolDraft;
  images: EnrolImages;
  onImages: (patch: Partial<EnrolImages>) => void;
  withWitness: boolean;
  emiPaise: number | null;
  errorOf: (field: FormField) => string | null;
}

export function ImagesStep({ draft, images, onImages, withWitness, emiPaise, errorOf }: ImagesStepProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="form-step">
      <legend className="visually-hidden">{t('addCustomer.steps.documents')}</legend>
      <section className="card" aria-labelledby="enrol-summary-title">
        <h2 id="enrol-summary-title">{t('addCustomer.summary')}</h2>
        <Facts
          rows={[
            [t('addCustomer.customer'), `${draft.firstName.trim()} ${draft.lastName.trim()}`],
            [t('customers.mobile'), `+91 ${draft.mobile}`],
            [t('addCustomer.device'), `${draft.brand} ${draft.model}`.trim()],
            [t('device.imei1'), draft.imei1],
            [t('loan.emi'), emiPaise === null ? null : t('addCustomer.emiTimes', { amount: formatRupees(emiPaise), count: Number(draft.tenure) })],
          ]}
        />
      </section>
      <PhotoInput label={t('addCustomer.photo')} value={images.photo} error={errorOf('photo')} onChange={(photo) => onImages({ photo })} />
      <SignaturePad label={t('addCustomer.signature')} error={errorOf('signature')} onChange={(signature) => onImages({ signature })} />
      {withWitness ? (
        <SignaturePad
          label={t('addCustomer.witnessSignature')}
          error={errorOf('witnessSignature')}
          onChange={(witnessSignature) => onImages({ witnessSignature })}
        />
      ) : null}
    </fieldset>
  );
}
