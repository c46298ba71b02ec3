/**
 * Picks a photo or scan from the camera or the gallery, shrinks it (1200 px, quality 0.8, JPEG or PNG
 * as it came) and checks the 5 MB limit before the caller may upload it.
 */
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isWithinUploadLimit, outputTypeFor, shrinkImage, shrunkFileName, type ImageType } from '../image.ts';
import { useObjectUrl } from '../use-object-url.ts';

export interface PickedImage {
  blob: Blob;
  fileName: string;
  type: ImageType;
}

export interface PhotoInputProps {
  label: string;
  value: PickedImage | null;
  onChange: (image: PickedImage | null) => void;
  error?: string | null;
  /** Offer the camera first (a customer's photo); documents prefer the gallery. */
  camera?: boolean;
}

const ACCEPT = 'image/jpeg,image/png';

export function PhotoInput({ label, value, onChange, error, camera = true }: PhotoInputProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const messageId = `${labelId}-message`;
  const cameraInput = useRef<HTMLInputElement>(null);
  const galleryInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const preview = useObjectUrl(value?.blob);

  async function picked(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const type = outputTypeFor(file.type);
    if (!type) {
      setProblem(t('photoInput.wrongType'));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const blob = await shrinkImage(file);
      if (!isWithinUploadLimit(blob.size)) {
        setProblem(t('photoInput.tooLarge'));
        return;
      }
      onChange({ blob, fileName: shrunkFileName(file.name, type), type });
    } catch {
      setProblem(t('photoInput.unreadable'));
    } finally {
      setBusy(false);
    }
  }

  const message = problem ?? error ?? null;
  return (
    <div className="field" role="group" aria-labelledby={labelId} aria-describedby={message ? messageId : undefined}>
      <span id={labelId} className="field__label">
        {label}
      </span>
      <div className={`photo-input${message ? ' photo-input--invalid' : ''}`}>
        {preview ? (
          <img className="photo-input__preview" src={preview} alt={t('photoInput.previewAlt', { label })} />
        ) : (
          <span className="photo-input__empty">{busy ? t('photoInput.preparing') : t('photoInput.none')}</span>
        )}
      </div>
      <div className="photo-input__actions">
        {camera ? (
          <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => cameraInput.current?.click()}>
            {t('photoInput.camera')}
          </button>
        ) : null}
        <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => galleryInput.current?.click()}>
          {value ? t('photoInput.replace') : t('photoInput.choose')}
        </button>
        {value ? (
          <button type="button" className="button button--danger button--small" disabled={busy} onClick={() => onChange(null)}>
            {t('photoInput.remove')}
          </button>
        ) : null}
      </div>
      <input ref={cameraInput} type="file" accept={ACCEPT} capture="environment" hidden onChange={picked} />
      <input ref={galleryInput} type="file" accept={ACCEPT} hidden onChange={picked} />
      <p className="field__hint">{t('photoInput.hint')}</p>
      {message ? (
        <p id={messageId} className="field__error">
          {message}
        </p>
      ) : null}
    </div>
  );
}
