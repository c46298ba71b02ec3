/**
 * The operator's announcement (the spec's showAd): after sign-in, the newest one this user has not dismissed shows
 * once in a dialog, and `showAd` remembers it was shown here. Closing it dismisses it on the server, so it shows on
 * no other device either; one the server still returns after it was shown here (the dismissal did not reach it) is
 * dismissed again quietly, without showing it twice.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Announcement } from '@kisht/contract/ads';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { readStored, writeStored } from '../../../shared/storage.ts';
import { useDismissAnnouncementMutation, useGetCurrentAnnouncementQuery } from '../api/announcements-api.ts';
import { shownValue, wasShown } from '../hooks/announcement-seen.ts';
import './announcement.css';

export function AnnouncementDialog() {
  const { t } = useTranslation();
  const { data: current } = useGetCurrentAnnouncementQuery();
  const [dismiss] = useDismissAnnouncementMutation();
  const [open, setOpen] = useState<Announcement | null>(null);
  // Each announcement is handled once per load (an effect may run twice for the same answer).
  const handled = useRef<number | null>(null);

  useEffect(() => {
    if (!current || handled.current === current.id) return;
    handled.current = current.id;
    const userId = readStored('userId');
    if (wasShown(readStored('showAd'), userId, current.id)) {
      void dismiss({ announcement_id: current.id });
      return;
    }
    writeStored('showAd', shownValue(userId, current.id));
    setOpen(current);
  }, [current, dismiss]);

  function close() {
    if (open) void dismiss({ announcement_id: open.id });
    setOpen(null);
  }

  return (
    <Dialog
      open={open !== null}
      title={open?.title ?? ''}
      onClose={close}
      actions={
        <button type="button" className="button button--primary" onClick={close}>
          {t('ads.announcement.close')}
        </button>
      }
    >
      <p className="announcement__label">{t('ads.announcement.label')}</p>
      <p className="announcement__text">{open?.text}</p>
      {open?.link ? (
        <p>
          <a className="announcement__link" href={open.link} target="_blank" rel="noopener noreferrer">
            {t('ads.announcement.open')}
          </a>
        </p>
      ) : null}
    </Dialog>
  );
}
