/** Apple details (?customer_id=): the iPhone under MDM, its Apple Business Manager record, and what waits for it. */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { parseCustomerId } from '../../../shared/routes.ts';
import { useDisableActivationLockMutation, useGetAppleDetailsQuery, useInstallOneModeAppMutation, useLazyGetAppleQrQuery } from '../api/apple-api.ts';

export function AppleDetailsScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const customerId = parseCustomerId(params.get('customer_id'));
  const { data, isError, refetch, isFetching } = useGetAppleDetailsQuery(customerId ?? 0, { skip: customerId === null });
  const [fetchQr, qr] = useLazyGetAppleQrQuery();
  const [disableLock, disabling] = useDisableActivationLockMutation();
  const [installApp, installing] = useInstallOneModeAppMutation();
  if (customerId === null) return <NotFoundScreen />;
  const when = (value: string | null | undefined) => (value ? formatDateTime(value) : null);
  const ignore = () => undefined; // the error toast already says what went wrong

  return (
    <Page
      title={t('apple.details.title')}
      actions={
        <button type="button" className="button button--secondary button--small" onClick={() => void refetch()} disabled={isFetching}>
          {t('apple.refresh')}
        </button>
      }
    >
      {isError && !data ? <LoadErrorCard message={t('apple.details.loadError')} onRetry={() => void refetch()} /> : null}
      {data ? (
        <>
          <article className="card">
            <h2>{t('apple.details.device')}</h2>
            {data.device ? (
              <Facts
                rows={[
                  [t('apple.details.serial'), data.device.serial_number],
                  [t('apple.details.model'), data.device.model],
                  [t('apple.details.os'), data.device.os_version],
                  [t('apple.details.udid'), data.device.udid],
                  [t('apple.details.enrolledAt'), when(data.device.enrolled_at)],
                  [t('apple.details.pushReady'), data.device.push_ready ? t('apple.yes') : t('apple.no')],
                  [t('apple.details.lastContact'), when(data.device.last_mdm_contact_at)],
                  [t('apple.details.lastStatus'), data.device.last_status],
                  [t('apple.details.bypassCode'), data.device.activation_lock_code ? t('apple.yes') : t('apple.no')],
                ]}
              />
            ) : (
              <p className="muted">{t('apple.details.notEnrolled')}</p>
            )}
          </article>
          <article className="card">
            <h2>{t('apple.details.abm')}</h2>
            <Facts
              rows={[
                [t('apple.details.profileStatus'), data.profile_status],
                [t('apple.details.serial'), data.dep?.serial_number],
                [t('apple.details.model'), data.dep?.description ?? data.dep?.model],
                [t('apple.details.lastSync'), when(data.dep?.synced_at)],
              ]}
            />
          </article>
          <article className="card">
            <h2>{t('apple.details.queued')}</h2>
            {data.queued.length ? (
              <ul className="list">
                {data.queued.map((c) => (
                  <li key={c.id} className="facts__row">
                    <span>{c.type}</span>
                    <span className="muted">{`${c.state} · ${formatDateTime(c.created_at)}`}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{t('apple.details.nothingQueued')}</p>
            )}
          </article>
          <div className="stack">
            <button type="button" className="button button--primary button--block" onClick={() => void fetchQr(customerId)} disabled={qr.isFetching}>
              {t('apple.details.enrolLink')}
            </button>
            {qr.data ? (
              <p className="card">
                <span className="muted">{t('apple.details.enrolHelp')}</span>
                <br />
                <a href={qr.data.enrol_url}>{qr.data.enrol_url}</a>
              </p>
            ) : null}
            {data.device ? (
              <>
                <button type="button" className="button button--secondary button--block" disabled={installing.isLoading} onClick={() => void installApp({ customer_id: customerId }).unwrap().catch(ignore)}>
                  {t('apple.details.installApp')}
                </button>
                <button type="button" className="button button--danger button--block" disabled={disabling.isLoading} onClick={() => void disableLock({ customer_id: customerId }).unwrap().catch(ignore)}>
                  {t('apple.details.disableLock')}
                </button>
              </>
            ) : null}
          </div>
        </>
      ) : null}
    </Page>
  );
}
