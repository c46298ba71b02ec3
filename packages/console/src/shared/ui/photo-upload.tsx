/**
 * A photo or scan to replace a stored image: picked (camera or gallery, shrunk by PhotoInput), then sent with
 * Upload. `upload` resolves when stored and rejects when refused (its error toast says why); a refused image
 * stays picked to try again.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoInput, type PickedImage } from './photo-input.tsx';

export function PhotoUpload({ label, camera, busy, upload }: { label: string; camera: boolean; busy: boolean; upload: (picked: PickedImage) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<PickedImage | null>(null);
  async function save() {
    if (!picked) return;
    try {
      await upload(picked);
      setPicked(null);
    } catch {
      // The error toast already says what went wrong.
    }
  }
  return (
    <div className="stack">
      <PhotoInput label={label} value={picked} onChange={setPicked} camera={camera} />
      {picked ? (
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void save()}>
          {t('documents.upload')}
        </button>
      ) : null}
    </div>
  );
}
