/** Where the retailer is signed in, with a way to end the other sessions. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@kisht/contract/sessions';
import { formatDateTime } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { useGetMySessionsQuery, useLogoutMySessionMutation } from '../api/sessions-api.ts';
import { browserLabel, deviceLabel, orderSessions } from '../hooks/describe-session.ts';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';

function SessionCard({ session, onEnd, busy }: { session: SessionItem; onEnd: () => void; busy: boolean }) {
  const { t } = useTranslation();
  const rows: [string, string | null][] = [
    [t('sessions.browser'), browserLabel(session)],
    [t('sessions.platform'), session.device_platform],
    [t('sessions.ip'), session.ip],
    [t('sessions.signedIn'), formatDateTime(session.created_at)],
    [t('sessions.lastActive'), formatDateTime(session.last_seen_at)],
  ];
  return (
    <li className="card session-card">
      <div className="session-card__title">
        <h2>{deviceLabel(session) ?? t('sessions.unknownDevice')}</h2>
        {session.current ? <span className="badge">{t('sessions.thisDevice')}</span> : null}
      </div>
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div key={label} className="facts__row">
            <dt>{label}</dt>
            <dd>{value || t('common.notAvailable')}</dd>
          </div>
        ))}
      </dl>
      {!session.current ? (
        <button
          type="button"
          className="button button--danger button--small"
          onClick={onEnd}
          disabled={busy}
          aria-label={t('sessions.endNamed', { device: deviceLabel(session) ?? t('sessions.unknownDevice') })}
        >
          {t('sessions.end')}
        </button>
      ) : null}
    </li>
  );
}

export function SessionsScreen() {
  const { t } = useTranslation();
  const { data, isError, refetch } = useGetMySessionsQuery();
  const [endSession, ending] = useLogoutMySessionMutation();
  const [confirmAll, setConfirmAll] = useState(false);
  const sessions = orderSessions(data ?? []);
  const others = sessions.filter((s) => !s.current).length;

  async function endAllOthers() {
    try {
      await endSession({ all_others: true }).unwrap();
    } catch {
      // The error toast already says what went wrong.
    } finally {
      setConfirmAll(false);
    }
  }

  return (
    <Page title={t('sessions.title')}>
      <p className="muted">{t('sessions.intro')}</p>
      {isError && !data ? (
        <LoadErrorCard message={t('sessions.loadError')} onRetry={() => void refetch()} />
      ) : null}
      {others > 0 ? (
        <button type="button" className="button button--danger button--block" onClick={() => setConfirmAll(true)}>
          {t('sessions.endAllOthers')}
        </button>
      ) : data ? (
        <p>{t('sessions.noOthers')}</p>
      ) : null}
      <ul className="list">
        {sessions.map((session) => (
          <SessionCard
            key={session.id}
            session={session}
            busy={ending.isLoading}
            onEnd={() => void endSession({ session_id: session.id }).unwrap().catch(() => undefined)}
          />
        ))}
      </ul>
      <ConfirmDialog
        open={confirmAll}
        title={t('sessions.confirmTitle')}
        message={t('sessions.confirmMessage', { number: others })}
        confirmLabel={t('sessions.endAllOthers')}
        onConfirm={endAllOthers}
        onCancel={() => setConfirmAll(false)}
        busy={ending.isLoading}
        danger
      />
    </Page>
  );
}
