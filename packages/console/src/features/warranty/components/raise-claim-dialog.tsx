/**
 * Raising a claim at the counter: the IMEI of the phone brought in (typed again, not copied from the sale), what
 * happened (the causes the plan covers), a description and 1 to 5 photos. Each photo uploads as soon as it is
 * picked, so a claim the server refuses (another phone, not covered, no claims left) keeps its photos for the next
 * try; the refusal shows as the server's message and on the field it concerns.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WarrantySale } from '@kisht/contract/warranty';
import { isValidImei } from '@kisht/domain/imei';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { TextAreaField } from '../../../shared/ui/text-area-field.tsx';
import { PhotoInput, type PickedImage } from '../../../shared/ui/photo-input.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { digitsOnly, IMEI_LENGTH } from '../../../shared/customers/field-input.ts';
import { useObjectUrl } from '../../../shared/use-object-url.ts';
import { useRaiseClaimMutation, useUploadClaimPhotoMutation } from '../api/warranty-api.ts';
import {
  CAUSE_LABEL_KEYS,
  CLAIM_PHOTOS_MAX,
  claimBody,
  coveredCauses,
  DESCRIPTION_MAX_LENGTH,
  validateClaim,
  type ClaimDraft,
  type ClaimErrors,
} from '../hooks/claims.ts';

interface Uploaded {
  photoId: number;
  blob: Blob;
}

function UploadedPhoto({ photo, number, onRemove }: { photo: Uploaded; number: number; onRemove: () => void }) {
  const { t } = useTranslation();
  const url = useObjectUrl(photo.blob);
  return (
    <li className="claim-upload">
      {url ? <img className="claim-photo" src={url} alt={t('warranty.claim.photoAlt', { number })} /> : null}
      <button type="button" className="button button--secondary button--small" onClick={onRemove}>
        {t('warranty.claim.removePhoto', { number })}
      </button>
    </li>
  );
}

export function RaiseClaimDialog({ sale, onClose }: { sale: WarrantySale; onClose: () => void }) {
  const { t } = useTranslation();
  const causes = coveredCauses(sale.rules);
  const [draft, setDraft] = useState<Omit<ClaimDraft, 'photoIds'>>({ imei: '', cause: causes.length === 1 ? causes[0]! : '', description: '' });
  const [photos, setPhotos] = useState<Uploaded[]>([]);
  const [errors, setErrors] = useState<ClaimErrors>({});
  // A refusal in the server's words: on the IMEI (another phone), on the cause (not covered), or for the whole claim
  // (not in cover, no claims left).
  const [refusal, setRefusal] = useState<{ field: 'imei' | 'cause' | null; text: string } | null>(null);
  const [upload, { isLoading: uploading }] = useUploadClaimPhotoMutation();
  const [raise, { isLoading: raising }] = useRaiseClaimMutation();
  const body = useRef<HTMLDivElement>(null);

  const errorOf = (field: keyof ClaimErrors) => {
    if (refusal && refusal.field === field) return refusal.text;
    const key = errors[field];
    return key ? t(key) : null;
  };

  function update(patch: Partial<Omit<ClaimDraft, 'photoIds'>>) {
    setDraft((current) => ({ ...current, ...patch }));
    setRefusal(null);
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch) as (keyof ClaimErrors)[]) delete next[field];
      return next;
    });
  }

  async function addPhoto(picked: PickedImage | null) {
    if (!picked) return;
    try {
      const stored = await upload({ saleId: sale.id, file: picked.blob, fileName: picked.fileName }).unwrap();
      setPhotos((current) => [...current, { photoId: stored.photo_id, blob: picked.blob }]);
      setErrors(({ photoIds: _done, ...rest }) => rest);
    } catch {
      // The refusal (type, size, too many waiting) is the error toast.
    }
  }

  async function submit() {
    const complete: ClaimDraft = { ...draft, photoIds: photos.map((p) => p.photoId) };
    const found = validateClaim(complete, causes);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      requestAnimationFrame(() => body.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    try {
      // "Claim raised." is the toast; the claim shows in the sale's list (its tag).
      await raise(claimBody(sale.id, complete)).unwrap();
      onClose();
    } catch (failure) {
      if (!isApiFailure(failure)) return;
      // The toast says it too, and goes: it stays where it belongs.
      const field = failure.code === 'WARRANTY_IMEI_MISMATCH' ? 'imei' : failure.code === 'WARRANTY_NOT_COVERED' ? 'cause' : null;
      setRefusal({ field, text: failure.message });
    }
  }

  return (
    <FormDialog title={t('warranty.claim.title')} busy={raising || uploading} onClose={onClose} onSubmit={() => void submit()} submitLabel={t('warranty.claim.submit')}>
      <div ref={body} className="warranty-dialog__fields">
        <p className="warranty-dialog__for">{t('warranty.claim.for', { plan: sale.plan_name, device: `${sale.brand} ${sale.model}` })}</p>
        <TextField
          label={t('warranty.claim.imei')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={IMEI_LENGTH}
          value={draft.imei}
          hint={t('warranty.claim.imeiHint')}
          error={draft.imei.length === IMEI_LENGTH && !isValidImei(draft.imei) ? t('addCustomer.errors.imei') : errorOf('imei')}
          onChange={(event) => update({ imei: digitsOnly(event.target.value, IMEI_LENGTH) })}
        />
        <SelectField label={t('warranty.claim.cause.label')} value={draft.cause} error={errorOf('cause')} onChange={(event) => update({ cause: event.target.value })}>
          <option value="">{t('common.choose')}</option>
          {causes.map((cause) => (
            <option key={cause} value={cause}>
              {t(CAUSE_LABEL_KEYS[cause])}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label={t('warranty.claim.description')}
          placeholder={t('warranty.claim.descriptionPlaceholder')}
          maxLength={DESCRIPTION_MAX_LENGTH}
          value={draft.description}
          error={errorOf('description')}
          onChange={(event) => update({ description: event.target.value })}
        />
        <div className="claim-uploads" role="group" aria-label={t('warranty.claim.photos')}>
          <p className="field__label">{t('warranty.claim.photos')}</p>
          <p className="field__hint">{t('warranty.claim.photosHint', { max: CLAIM_PHOTOS_MAX })}</p>
          {photos.length > 0 ? (
            <ul className="claim-uploads__list">
              {photos.map((photo, i) => (
                <UploadedPhoto key={photo.photoId} photo={photo} number={i + 1} onRemove={() => setPhotos((current) => current.filter((p) => p.photoId !== photo.photoId))} />
              ))}
            </ul>
          ) : null}
          {photos.length < CLAIM_PHOTOS_MAX ? (
            <PhotoInput
              label={t('warranty.claim.addPhoto', { number: photos.length + 1, max: CLAIM_PHOTOS_MAX })}
              value={null}
              camera
              error={errorOf('photoIds')}
              onChange={(picked) => void addPhoto(picked)}
            />
          ) : null}
          <p className="muted small" aria-live="polite">
            {uploading ? t('warranty.claim.uploading') : ''}
          </p>
        </div>
        {refusal && refusal.field === null ? <p className="field__error">{refusal.text}</p> : null}
      </div>
    </FormDialog>
  );
}
