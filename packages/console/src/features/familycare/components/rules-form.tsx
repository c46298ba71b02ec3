/**
 * The rules a parent asks for, filled in by the retailer: screen time per weekday, bedtime windows, apps always
 * allowed and blocked, and a lock for a while. Saving sends them to the phone as the next version.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FamilyCare } from '@kisht/contract/familycare';
import { formatDateTime } from '@kisht/domain/format';
import { FAMILY_LIMITS } from '@kisht/protocol/messages';
import { indiaWeekday } from '@kisht/protocol/family-rules';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { TextAreaField } from '../../../shared/ui/text-area-field.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { useSaveFamilyRulesMutation } from '../api/familycare-api.ts';
import { draftOf, errorsFromServer, LOCK_CHOICES, MORNING, rulesOf, validateRules, type RuleError, type RuleErrors, type RulesDraft } from '../hooks/rules-form.ts';
import { WEEKDAYS } from '../hooks/usage-chart.ts';

/** A new bedtime window starts as a school night. */
const NEW_WINDOW = { start: '21:00', end: '07:00' };

export function RulesForm({ familyCare, canEdit }: { familyCare: FamilyCare; canEdit: boolean }) {
  const { t } = useTranslation();
  const formId = useId();
  const [draft, setDraft] = useState<RulesDraft>(() => draftOf(familyCare, Date.now()));
  const [errors, setErrors] = useState<RuleErrors>({});
  const [sameEveryDay, setSameEveryDay] = useState('');
  const [save, { isLoading: saving }] = useSaveFamilyRulesMutation();
  // A save from another screen or person arrives through the usage event: shown unless being edited here.
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (!dirty) setDraft(draftOf(familyCare, Date.now()));
  }, [familyCare, dirty]);

  const say = (error: RuleError | undefined) => (!error ? null : 'text' in error ? error.text : t(error.key, error.values));
  const update = (patch: Partial<RulesDraft>) => {
    setDirty(true);
    setDraft((current) => ({ ...current, ...patch }));
  };
  const setLimit = (day: number, text: string) => update({ limits: draft.limits.map((value, i) => (i === day ? text : value)) });
  const setWindow = (index: number, patch: Partial<RulesDraft['downtime'][number]>) =>
    update({ downtime: draft.downtime.map((window, i) => (i === index ? { ...window, ...patch } : window)) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateRules(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await save({ customer_id: familyCare.customer_id, rules: rulesOf(draft, Date.now(), familyCare.rules) }).unwrap();
      setDirty(false);
    } catch (failure) {
      // The server's message is the toast; its field problems go on the fields, and the draft stays for another try.
      if (isApiFailure(failure) && failure.code === 'VALIDATION_FAILED' && failure.details) setErrors(errorsFromServer(failure.details));
    }
  };

  const today = indiaWeekday(Date.now());
  const limitErrorId = `${formId}-limits-error`;
  const limitHintId = `${formId}-limits-hint`;
  const limitError = draft.limits.map((_, day) => errors[`limit.${day}`]).find(Boolean);
  const savedLock = familyCare.rules?.lock_until ?? null;
  // The lock's end is written above the form ("locked until ..."): a native select cannot wrap a long option.
  const lockLabel = (choice: (typeof LOCK_CHOICES)[number]) => t(`familycare.rules.lock.${choice}`, { time: MORNING });

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      {/* Nothing can be typed while saving: the saved rules replace the draft when the answer comes. */}
      <fieldset className="familycare-fields" disabled={saving || !canEdit}>
        <fieldset className="familycare-group">
          <legend className="field__label">{t('familycare.rules.limitTitle')}</legend>
          <p id={limitHintId} className="field__hint">
            {t('familycare.rules.limitHint')}
          </p>
          <div className="familycare-days">
            {WEEKDAYS.map((key, day) => {
              const invalid = !!errors[`limit.${day}`];
              return (
                <div className="field familycare-day" key={key}>
                  <label className="field__label" htmlFor={`${formId}-limit-${day}`}>
                    {t(`familycare.day.${key}`)}
                    {day === today ? <span className="visually-hidden"> {t('familycare.rules.today')}</span> : null}
                  </label>
                  <div className={`field__control${invalid ? ' field__control--invalid' : ''}${day === today ? ' familycare-day--today' : ''}`}>
                    <input
                      id={`${formId}-limit-${day}`}
                      className="field__input"
                      inputMode="numeric"
                      autoComplete="off"
                      maxLength={5}
                      placeholder="–"
                      value={draft.limits[day]}
                      aria-invalid={invalid || undefined}
                      aria-describedby={invalid ? limitErrorId : limitHintId}
                      onChange={(event) => setLimit(day, event.target.value)}
                    />
                  </div>
                </div>
              );
            })}
          </div>
          {limitError ? (
            <p id={limitErrorId} className="field__error">
              {say(limitError)}
            </p>
          ) : null}
          <div className="familycare-same">
            <TextField
              className="familycare-same__field"
              label={t('familycare.rules.everyDay')}
              inputMode="numeric"
              autoComplete="off"
              maxLength={5}
              value={sameEveryDay}
              onChange={(event) => setSameEveryDay(event.target.value)}
            />
            <button type="button" className="button button--secondary" onClick={() => update({ limits: draft.limits.map(() => sameEveryDay.trim()) })}>
              {t('familycare.rules.setEveryDay')}
            </button>
          </div>
        </fieldset>

        <fieldset className="familycare-group">
          <legend className="field__label">{t('familycare.rules.downtimeTitle')}</legend>
          <p className="field__hint">{t('familycare.rules.downtimeHint')}</p>
          {draft.downtime.map((window, i) => {
            const label = t('familycare.rules.window', { n: String(i + 1) });
            const error = say(errors[`downtime.${i}`]);
            return (
              // The index is the window's name ("Window 2"): removing one renumbers those after it.
              <div className="familycare-window" role="group" aria-label={label} key={i}>
                <TextField type="time" label={t('familycare.rules.from')} value={window.start} required onChange={(event) => setWindow(i, { start: event.target.value })} />
                <TextField type="time" label={t('familycare.rules.to')} value={window.end} required onChange={(event) => setWindow(i, { end: event.target.value })} />
                <button
                  type="button"
                  className="button button--secondary button--small familycare-window__remove"
                  aria-label={t('familycare.rules.removeWindow', { n: String(i + 1) })}
                  onClick={() => update({ downtime: draft.downtime.filter((_, j) => j !== i) })}
                >
                  {t('familycare.rules.remove')}
                </button>
                {error ? <p className="field__error familycare-window__error">{error}</p> : null}
              </div>
            );
          })}
          {draft.downtime.length < FAMILY_LIMITS.downtimeWindows ? (
            <button type="button" className="button button--secondary" onClick={() => update({ downtime: [...draft.downtime, { ...NEW_WINDOW }] })}>
              {t('familycare.rules.addWindow')}
            </button>
          ) : (
            <p className="field__hint">{t('familycare.rules.windowsFull', { max: String(FAMILY_LIMITS.downtimeWindows) })}</p>
          )}
        </fieldset>

        <TextAreaField
          label={t('familycare.rules.allowed')}
          hint={t('familycare.rules.allowedHint')}
          rows={3}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          value={draft.allowed}
          error={say(errors.allowed)}
          onChange={(event) => update({ allowed: event.target.value })}
        />
        <TextAreaField
          label={t('familycare.rules.blocked')}
          hint={t('familycare.rules.blockedHint')}
          rows={3}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          value={draft.blocked}
          error={say(errors.blocked)}
          onChange={(event) => update({ blocked: event.target.value })}
        />
        <SelectField
          label={t('familycare.rules.lockLabel')}
          hint={t('familycare.rules.lockHint')}
          value={draft.lock}
          error={say(errors.lock)}
          onChange={(event) => update({ lock: event.target.value as RulesDraft['lock'] })}
        >
          {LOCK_CHOICES.filter((choice) => choice !== 'keep' || draft.lock === 'keep' || (savedLock !== null && Date.parse(savedLock) > Date.now())).map((choice) => (
            <option key={choice} value={choice}>
              {lockLabel(choice)}
            </option>
          ))}
        </SelectField>
      </fieldset>
      {errors.form ? (
        <p className="field__error" role="alert">
          {say(errors.form)}
        </p>
      ) : null}
      {canEdit ? (
        <button type="submit" className="button button--primary button--block" disabled={saving}>
          {t('familycare.rules.save')}
        </button>
      ) : (
        <p className="muted small">{t('familycare.rules.noAccess')}</p>
      )}
      {familyCare.updated_at ? <p className="muted small">{t('familycare.rules.saved', { time: formatDateTime(familyCare.updated_at) })}</p> : null}
    </form>
  );
}
