/** An offline code (unlock, lock, time or bypass) to read out to the customer: a bottom drawer with Cancel and Copy. */
import { useTranslation } from 'react-i18next';
import type { OfflineCode } from '@kisht/contract/devices';
import { formatDateTime } from '@kisht/domain/format';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { copyCode as copyText } from '../../../shared/ui/copy-code.ts';
import './devices.css';

/** Copies an offline code, with the device screens' words for it. */
export function copyCode(code: string | null | undefined): Promise<void> {
  return copyText(code, { notFound: 'device.code.notFound', copied: 'device.code.copied', failed: 'device.code.copyFailed' });
}

export function CodeView({ code }: { code: OfflineCode | null }) {
  const { t } = useTranslation();
  return (
    <div className="code-view">
      <output className="code-view__code" aria-label={t('device.code.label')}>
        {code?.code ?? t('common.notAvailable')}
      </output>
      {code?.valid_until ? <p className="muted small">{t('device.code.validUntil', { time: formatDateTime(code.valid_until) })}</p> : null}
      <p className="muted small">{t('device.code.hint')}</p>
    </div>
  );
}

export function CodeDialog({ title, code, onClose }: { title: string; code: OfflineCode | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      variant="sheet"
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button--primary" onClick={() => void copyCode(code?.code)}>
            {t('device.code.copy')}
          </button>
        </>
      }
    >
      <CodeView code={code} />
    </Dialog>
  );
}
