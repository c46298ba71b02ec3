/** Apple sync: the network's Apple Business Manager devices, a sync with Apple, and linking a device to a customer. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppleDepDevice } from '@kisht/contract/apple';
import { formatDateTime } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { useGetAppleDevicesQuery, useSyncAppleDevicesMutation, useUpdateAppleDeviceMutation } from '../api/apple-api.ts';

function DeviceCard({ device }: { device: AppleDepDevice }) {
  const { t } = useTranslation();
  const [update, updating] = useUpdateAppleDeviceMutation();
  const [customerId, setCustomerId] = useState(String(device.customer_id ?? device.suggested_customer_id ?? ''));
  const id = Number(customerId);
  const valid = Number.isInteger(id) && id > 0;

  function link(event: FormEvent) {
    event.preventDefault();
    if (valid) void update({ serial_number: device.serial_number, customer_id: id }).unwrap().catch(() => undefined);
  }

  return (
    <li className="card">
      <h2>{device.description ?? device.model ?? device.serial_number}</h2>
      <Facts
        rows={[
          [t('apple.details.serial'), device.serial_number],
          [t('apple.details.profileStatus'), device.profile_status],
          [t('apple.sync.change'), device.op_type],
          [t('apple.sync.customer'), device.customer_id],
          [t('apple.details.lastSync'), formatDateTime(device.synced_at)],
        ]}
      />
      <form className="stack" onSubmit={link}>
        <TextField label={t('apple.sync.customerId')} inputMode="numeric" value={customerId} onChange={(e) => setCustomerId(e.target.value.replace(/\D/g, ''))} />
        <button type="submit" className="button button--primary button--small" disabled={!valid || updating.isLoading}>
          {t('apple.sync.link')}
        </button>
        {device.customer_id ? (
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={updating.isLoading}
            onClick={() => void update({ serial_number: device.serial_number, customer_id: null }).unwrap().catch(() => undefined)}
          >
            {t('apple.sync.unlink')}
          </button>
        ) : null}
      </form>
    </li>
  );
}

export function AppleSyncScreen() {
  const { t } = useTranslation();
  const { data, isError, refetch } = useGetAppleDevicesQuery();
  const [sync, syncing] = useSyncAppleDevicesMutation();
  return (
    <Page title={t('apple.sync.title')}>
      <p className="muted">{t('apple.sync.intro')}</p>
      <button type="button" className="button button--primary button--block" disabled={syncing.isLoading} onClick={() => void sync().unwrap().catch(() => undefined)}>
        {syncing.isLoading ? t('apple.sync.syncing') : t('apple.sync.run')}
      </button>
      {syncing.data ? <p className="muted">{t('apple.sync.fetched', { number: syncing.data.fetched })}</p> : null}
      {isError && !data ? <LoadErrorCard message={t('apple.sync.loadError')} onRetry={() => void refetch()} /> : null}
      {data && data.length === 0 ? <p>{t('apple.sync.empty')}</p> : null}
      <ul className="list">
        {(data ?? []).map((device) => (
          <DeviceCard key={device.serial_number} device={device} />
        ))}
      </ul>
    </Page>
  );
}
