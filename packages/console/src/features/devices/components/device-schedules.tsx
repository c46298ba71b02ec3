/** Lock or unlock at a set time (entered in India time), and the customer's schedules with Cancel. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@kisht/domain/format';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { useCancelScheduleMutation, useGetSchedulesQuery, useScheduleLockUnlockMutation } from '../api/devices-api.ts';
import { istInputToIso, isoToIstInput } from '../../../shared/ist-datetime.ts';
import { DEVICE_ACTION_LABEL_KEYS, SCHEDULE_STATE_LABEL_KEYS } from '../hooks/device-labels.ts';
import './devices.css';

export function DeviceSchedules({ customerId, canLock, canUnlock }: { customerId: number; canLock: boolean; canUnlock: boolean }) {
  const { t } = useTranslation();
  const { data: schedules, isLoading } = useGetSchedulesQuery(customerId);
  const [schedule, scheduling] = useScheduleLockUnlockMutation();
  const [cancel, cancelling] = useCancelScheduleMutation();
  const [action, setAction] = useState<'lock' | 'unlock'>(canLock ? 'lock' : 'unlock');
  const [runAt, setRunAt] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const allowed = action === 'lock' ? canLock : canUnlock;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const iso = istInputToIso(runAt);
    if (!iso) return setError(t('common.required'));
    if (Date.parse(iso) <= Date.now()) return setError(t('device.schedule.future'));
    try {
      await schedule({ customer_id: customerId, action, run_at: iso, ...(note.trim() ? { note: note.trim() } : {}) }).unwrap();
      setRunAt('');
      setNote('');
    } catch {
      // Shown by the base query.
    }
  }

  return (
    <section aria-labelledby="schedules-title" className="device-block">
      <h3 id="schedules-title">{t('device.schedule.title')}</h3>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <SelectField label={t('device.schedule.action')} value={action} onChange={(e) => setAction(e.target.value as 'lock' | 'unlock')}>
          <option value="lock">{t('device.lock')}</option>
          <option value="unlock">{t('device.unlock')}</option>
        </SelectField>
        <TextField
          label={t('device.schedule.when')}
          type="datetime-local"
          min={isoToIstInput(new Date())}
          value={runAt}
          error={error}
          hint={t('device.schedule.istHint')}
          onChange={(e) => {
            setRunAt(e.target.value);
            setError(null);
          }}
        />
        <TextField label={t('common.optionalLabel', { label: t('device.schedule.note') })} maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} />
        <button type="submit" className="button button--primary button--small" disabled={!allowed || scheduling.isLoading}>
          {t('device.schedule.submit')}
        </button>
      </form>
      {isLoading ? (
        <Skeleton height={SKELETON_SMALL} />
      ) : schedules && schedules.length > 0 ? (
        <ul className="list schedule-list">
          {schedules.map((item) => (
            <li key={item.id} className="schedule-item">
              <span>
                <strong>{t(DEVICE_ACTION_LABEL_KEYS[item.action] ?? item.action)}</strong> {formatDateTime(item.run_at)}
                <span className="muted small">{` · ${t(SCHEDULE_STATE_LABEL_KEYS[item.state] ?? item.state)}`}</span>
                {item.note ? <span className="muted small">{` · ${item.note}`}</span> : null}
              </span>
              {item.state === 'scheduled' ? (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={cancelling.isLoading || !(item.action === 'lock' ? canLock : canUnlock)}
                  onClick={() => void cancel({ schedule_id: item.id, customerId }).unwrap().catch(() => undefined)}
                >
                  {t('device.schedule.cancel')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{t('device.schedule.empty')}</p>
      )}
    </section>
  );
}
