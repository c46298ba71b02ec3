/**
 * The device channel on customer details: enrolment, what the phone last reported, the lock status,
 * the offered actions (gated by the user's access switches like the server), offline codes, schedules
 * and the command history, polled every 2 s while a command is under way.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DevicePanel as Panel } from '@kisht/contract/devices';
import type { CustomerProfile } from '@kisht/contract/customers';
import { formatDateTime } from '@kisht/domain/format';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import { Facts } from '../../../shared/ui/facts.tsx';
import { Skeleton, SKELETON_LARGE, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { LockStatusBadge } from '../../../shared/ui/status-badges.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { selectAccessConfig, selectUserAccessConfig } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { appleDetailsPath, emmQrPath } from '../../../shared/routes.ts';
import { devicesApi, useGetDevicePanelQuery, useSendDeviceCommandMutation } from '../api/devices-api.ts';
import { actionKind, deviceRequest, lockControlAction } from '../hooks/action-requests.ts';
import { anyUnfinished, commandPollMs, readLocation, readSims } from '../hooks/command-status.ts';
import { useServerEventsLive } from '../../../shared/api/server-events.ts';
import { isActionPermitted, type AccessSwitches } from '../hooks/device-access.ts';
import { DEVICE_ACTION_LABEL_KEYS } from '../hooks/device-labels.ts';
import { panelActionGroups } from '../hooks/panel-actions.ts';
import { DeviceActionDialog } from './device-action-dialogs.tsx';
import { CommandHistory, LocationText, SimList } from './command-history.tsx';
import { OfflineCodes } from './offline-codes.tsx';
import { DeviceSchedules } from './device-schedules.tsx';
import './devices.css';

/** Reports the phone sends back at once: no dialog before them. */
const DIRECT_ACTIONS = ['fetch_location', 'sim_info'];

function ReportedFacts({ device }: { device: NonNullable<Panel['device']> }) {
  const { t } = useTranslation();
  const reported = device.reported;
  const battery = typeof reported.battery === 'number' ? `${reported.battery}%` : null;
  const version = typeof reported.app_version === 'string' ? reported.app_version : null;
  const sims = readSims(reported.sims);
  const location = readLocation(reported.location);
  return (
    <Facts
      rows={[
        [t('device.lastCheckIn'), device.last_check_in_at ? formatDateTime(device.last_check_in_at) : t('device.never')],
        [t('device.battery'), battery],
        [t('device.appVersion'), version],
        [t('device.sims'), sims ? <SimList sims={sims} /> : null],
        [t('device.lastLocation'), location ? <LocationText location={location} /> : null],
        [t('device.enrolledAt'), formatDateTime(device.enrolled_at)],
        [t('device.imei1'), device.imei1],
      ]}
    />
  );
}

/** On or off as last confirmed by the phone, for the buttons of switches. */
function switchState(panel: Panel, action: string): boolean | null {
  const reported = panel.device?.reported ?? {};
  const toggles = (reported.toggles ?? {}) as Record<string, unknown>;
  const value = action in toggles ? toggles[action] : (reported as Record<string, unknown>)[action];
  return typeof value === 'boolean' ? value : null;
}

function ActionButtons({
  title,
  actions,
  panel,
  switches,
  onChoose,
}: {
  title: string;
  actions: string[];
  panel: Panel;
  switches: AccessSwitches;
  onChoose: (action: string) => void;
}) {
  const { t } = useTranslation();
  const locked = panel.lock_status === 1;
  const known = actions.filter((action) => actionKind(action) !== null);
  if (known.length === 0) return null;
  return (
    <div role="group" aria-label={title} className="device-block">
      <h3>{title}</h3>
      <div className="action-grid">
        {known.map((action) => {
          const isLockControl = actionKind(action) === 'lock';
          const sent = isLockControl ? lockControlAction(locked) : action;
          const state = isLockControl ? null : switchState(panel, action);
          return (
            <button
              key={action}
              type="button"
              className={`button button--small ${isLockControl ? (locked ? 'button--primary' : 'button--danger') : 'button--secondary'}`}
              disabled={!isActionPermitted(sent, switches)}
              onClick={() => onChoose(action)}
            >
              {isLockControl ? (locked ? t('device.unlock') : t('device.lock')) : t(DEVICE_ACTION_LABEL_KEYS[action] ?? action)}
              {state !== null ? <span className="action-grid__state">{state ? t('device.on') : t('device.off')}</span> : null}
            </button>
          );
        })}
      </div>
    </div>
  );
}

export function DevicePanel({ customerId, profile, checkStatusRequest }: { customerId: number; profile: CustomerProfile; checkStatusRequest: number }) {
  const { t } = useTranslation();
  // The event stream refreshes the panel when a command moves; a slow poll stands in only while it is down.
  const { data: cached } = devicesApi.endpoints.getDevicePanel.useQueryState(customerId);
  const polling = anyUnfinished(cached?.commands);
  const streamLive = useServerEventsLive();
  const { data: panel, isLoading, isError, error, refetch } = useGetDevicePanelQuery(customerId, {
    pollingInterval: commandPollMs(polling, streamLive),
    skipPollingIfUnfocused: true,
  });
  const [send] = useSendDeviceCommandMutation();
  const [open, setOpen] = useState<string | null>(null);
  const switches: AccessSwitches = { userAccess: useAppSelector(selectUserAccessConfig), lockAccess: useAppSelector(selectAccessConfig) };
  const heading = useRef<HTMLHeadingElement>(null);

  const refetchRef = useRef(refetch);
  useEffect(() => {
    refetchRef.current = refetch;
  });
  // "Check status" from the edit menu: bring the panel into view and read the phone again (once per request).
  useEffect(() => {
    if (checkStatusRequest === 0) return;
    heading.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    heading.current?.focus({ preventScroll: true });
    void refetchRef.current();
  }, [checkStatusRequest]);

  function choose(action: string) {
    if (DIRECT_ACTIONS.includes(action)) {
      void send({ customerId, request: deviceRequest(customerId, { kind: 'once', action: action as 'fetch_location' | 'sim_info' }) })
        .unwrap()
        .catch(() => undefined);
      return;
    }
    setOpen(action);
  }

  const title = (
    <h2 id="device-panel-title" ref={heading} tabIndex={-1}>
      {t('device.panelTitle')}
    </h2>
  );

  if (isLoading) {
    return (
      <section className="card" aria-labelledby="device-panel-title" aria-busy="true">
        {title}
        <Skeleton height={SKELETON_SMALL} />
        <Skeleton height={SKELETON_LARGE} />
      </section>
    );
  }
  if (!panel) {
    return (
      <section className="card" aria-labelledby="device-panel-title">
        {title}
        <LoadErrorCard message={isError && isApiFailure(error) ? error.message : t('device.loadError')} onRetry={() => void refetch()} />
      </section>
    );
  }

  const locked = panel.lock_status === 1;
  const lockAllowed = isActionPermitted('lock', switches);
  const unlockAllowed = isActionPermitted('unlock', switches);
  // The server already offers the PIN change (in main) when the phone takes one; each action shows once.
  const { main, info } = panelActionGroups(panel.actions);
  const someOff = [...main.map((a) => (actionKind(a) === 'lock' ? lockControlAction(locked) : a)), ...info].some((a) => !isActionPermitted(a, switches));
  const apple = profile.provisioning_type === PROVISIONING_TYPE.APPLE;
  // An iPhone enrols and is managed from Apple details (MDM), not from the EMM QR.
  const appleLink = (
    <Link className="button button--secondary button--small" to={appleDetailsPath(customerId)}>
      {t('apple.details.title')}
    </Link>
  );

  return (
    <section className="card device-panel" aria-labelledby="device-panel-title">
      <div className="device-panel__heading">
        {title}
        <LockStatusBadge status={panel.lock_status} />
      </div>
      {panel.device ? (
        <>
          <ReportedFacts device={panel.device} />
          <button type="button" className="link-button" onClick={() => void refetch()}>
            {t('device.refresh')}
          </button>
          {someOff ? <p className="muted small">{t('device.someActionsOff')}</p> : null}
          {apple ? appleLink : null}
          <ActionButtons title={t('device.mainActions')} actions={main} panel={panel} switches={switches} onChoose={choose} />
          <ActionButtons title={t('device.infoActions')} actions={info} panel={panel} switches={switches} onChoose={choose} />
          <OfflineCodes customerId={customerId} mobile={profile.mobile} canLock={lockAllowed} canUnlock={unlockAllowed} />
          <DeviceSchedules customerId={customerId} canLock={lockAllowed} canUnlock={unlockAllowed} />
          <CommandHistory commands={panel.commands} polling={polling} />
        </>
      ) : (
        <div className="empty-state">
          <p>{apple ? t('emmQr.appleIntro') : t('device.notEnrolled')}</p>
          {apple ? (
            appleLink
          ) : (
            <Link className="button button--primary" to={emmQrPath(customerId)}>
              {t('device.showEmmQr')}
            </Link>
          )}
          {panel.commands.length > 0 ? <CommandHistory commands={panel.commands} polling={polling} /> : null}
        </div>
      )}
      {open ? <DeviceActionDialog action={open} customerId={customerId} mobile={profile.mobile} locked={locked} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}
