/** The phone's latest commands with each state's time and what came back (a location, SIMs, an error). */
import { useTranslation } from 'react-i18next';
import type { DeviceCommand } from '@kisht/contract/devices';
import { formatDateTime } from '@kisht/domain/format';
import { mapLink, readResult, stateTimes, type ReportedLocation, type ReportedSim } from '../hooks/command-status.ts';
import { CommandStateBadge, COMMAND_STATE_LABEL_KEYS } from '../../../shared/ui/status-badges.tsx';
import { COMMAND_ORIGIN_LABEL_KEYS, DEVICE_ACTION_LABEL_KEYS } from '../hooks/device-labels.ts';
import { simNumber } from '../hooks/sim-slot.ts';
import './devices.css';

export function LocationText({ location }: { location: ReportedLocation }) {
  const { t } = useTranslation();
  return (
    <span>
      <a href={mapLink(location.latitude, location.longitude)} target="_blank" rel="noreferrer">
        {`${location.latitude.toFixed(6)}, ${location.longitude.toFixed(6)}`}
      </a>
      {location.accuracy !== null ? ` ${t('device.accuracy', { metres: Math.round(location.accuracy) })}` : ''}
      {location.at ? ` · ${formatDateTime(location.at)}` : ''}
    </span>
  );
}

export function SimList({ sims }: { sims: ReportedSim[] }) {
  const { t } = useTranslation();
  if (sims.length === 0) return <span>{t('device.noSims')}</span>;
  return (
    <ul className="plain-list">
      {sims.map((sim) => (
        <li key={`${sim.slot}-${sim.iccid ?? ''}`}>
          {t('device.simSlot', { slot: simNumber(sim.slot) })}
          {sim.operator ? ` · ${sim.operator}` : ''}
          {sim.number ? ` · ${sim.number}` : ''}
          {sim.iccid ? <span className="muted small">{` · ${t('device.iccid')} ${sim.iccid}`}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** "On" or "Off" for commands that switch something. */
function switchText(command: DeviceCommand, t: (key: string) => string): string | null {
  const payload = command.payload as { on?: unknown; command?: unknown };
  if (typeof payload.on === 'boolean') return payload.on ? t('device.on') : t('device.off');
  if (typeof payload.command === 'string') return payload.command.endsWith('ON') ? t('device.on') : t('device.off');
  return null;
}

function CommandItem({ command }: { command: DeviceCommand }) {
  const { t, i18n } = useTranslation();
  const result = readResult(command.result);
  const on = switchText(command, t);
  const originKey = COMMAND_ORIGIN_LABEL_KEYS[command.origin];
  const errorKey = result.error ? `errors.${result.error}` : null;
  return (
    <li className="command-item">
      <div className="command-item__top">
        <strong>
          {t(DEVICE_ACTION_LABEL_KEYS[command.type] ?? command.type)}
          {on ? ` (${on})` : ''}
        </strong>
        <CommandStateBadge state={command.state} />
      </div>
      <p className="muted small command-item__times">
        {stateTimes(command)
          .map((step) => `${t(COMMAND_STATE_LABEL_KEYS[step.state] ?? step.state)} ${formatDateTime(step.at)}`)
          .join(' · ')}
        {originKey && command.origin !== 'retailer' ? ` · ${t(originKey)}` : ''}
      </p>
      {result.location ? (
        <p className="small">
          {t('device.location')}: <LocationText location={result.location} />
        </p>
      ) : null}
      {result.sims ? (
        <div className="small">
          {t('device.sims')}: <SimList sims={result.sims} />
        </div>
      ) : null}
      {result.error ? (
        <p className="small text-danger">{t('device.commandError', { reason: errorKey && i18n.exists(errorKey) ? t(errorKey) : result.error })}</p>
      ) : null}
    </li>
  );
}

export function CommandHistory({ commands, polling }: { commands: DeviceCommand[]; polling: boolean }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="command-history-title" className="device-block">
      <h3 id="command-history-title">{t('device.history')}</h3>
      <p className="muted small" aria-live="polite">
        {polling ? t('device.historyLive') : null}
      </p>
      {commands.length === 0 ? (
        <p className="muted">{t('device.historyEmpty')}</p>
      ) : (
        <ul className="list command-list">
          {commands.map((command) => (
            <CommandItem key={command.id} command={command} />
          ))}
        </ul>
      )}
    </section>
  );
}
