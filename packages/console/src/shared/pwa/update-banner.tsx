/** The "new content available" prompt with its Reload button; stays until acted on (toasts come and go). */
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { updatePrompt } from './service-worker.ts';

export function UpdateBanner() {
  const { t } = useTranslation();
  const waiting = useSyncExternalStore(updatePrompt.subscribe, updatePrompt.isWaiting);
  const [reloading, setReloading] = useState(false);
  if (!waiting) return null;
  return (
    <div className="update-banner" role="status">
      <span>{t('pwa.needRefresh')}</span>
      <div className="update-banner__actions">
        <button type="button" className="button button--secondary button--small" onClick={updatePrompt.dismiss}>
          {t('common.close')}
        </button>
        <button
          type="button"
          className="button button--primary button--small"
          disabled={reloading}
          onClick={() => {
            setReloading(true);
            void updatePrompt.reload();
          }}
        >
          {t('pwa.reload')}
        </button>
      </div>
    </div>
  );
}
