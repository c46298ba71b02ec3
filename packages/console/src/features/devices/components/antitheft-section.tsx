/**
 * Anti-theft on customer details, for a phone sold with an anti-theft product (decision 022): who SIM change
 * alerts go to, whether a SIM change turns lost mode on by itself, what lost mode shows, and what to do when the
 * phone is lost (the device panel's location and check-in, the SIM changes, and India's CEIR block with the IMEI).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Antitheft } from '@kisht/contract/antitheft';
import { LOST_MESSAGE_MAX } from '@kisht/contract/antitheft';
import type { CustomerProfile } from '@kisht/contract/customers';
import { COUNTRY_PREFIX } from '@kisht/domain/constants';
import { formatDate, formatDateTime, todayInIndia } from '@kisht/domain/format';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { localMobile } from '../../../shared/customers/field-input.ts';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { TextAreaField } from '../../../shared/ui/text-area-field.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { useGetAntitheftQuery, useRenewAntitheftMutation, useSaveAntitheftMutation } from '../api/antitheft-api.ts';
import { useSendDeviceCommandMutation } from '../api/devices-api.ts';
import { antitheftRequest, draftOf, renewedUntil, validateAntitheft, type AntitheftDraft, type AntitheftErrors } from '../hooks/antitheft-form.ts';
import './devices.css';

function SettingsForm({ settings, canEdit }: { settings: Antitheft; canEdit: boolean }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AntitheftDraft>(() => draftOf(settings));
  const [errors, setErrors] = useState<AntitheftErrors>({});
  const [save, { isLoading: saving }] = useSaveAntitheftMutation();
  // A save from another screen or person arrives through the customer's event: shown unless being edited here.
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (!dirty) setDraft(draftOf(settings));
  }, [settings, dirty]);

  const update = (patch: Partial<AntitheftDraft>) => {
    setDirty(true);
    setDraft((current) => ({ ...current, ...patch }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateAntitheft(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await save(antitheftRequest(settings.customer_id, draft)).unwrap();
      setDirty(false);
    } catch {
      // The server's message is the toast; the draft stays for another try.
    }
  };

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      {/* Nothing can be typed while saving: the saved values replace the draft when the answer comes. */}
      <fieldset className="antitheft-fields" disabled={saving}>
        <label className="antitheft-check">
          <input type="checkbox" checked={draft.lostModeOnSimChange} disabled={!canEdit} onChange={(event) => update({ lostModeOnSimChange: event.target.checked })} />
          <span>{t('antitheft.lostOnSimChange')}</span>
        </label>
        <TextAreaField
          label={t('antitheft.message')}
          hint={t('antitheft.messageHint')}
          maxLength={LOST_MESSAGE_MAX}
          rows={3}
          disabled={!canEdit}
          value={draft.message}
          error={errors.message ? t(errors.message) : null}
          onChange={(event) => update({ message: event.target.value })}
        />
        <TextField
          label={t('antitheft.contact')}
          hint={t('antitheft.contactHint')}
          prefix={COUNTRY_PREFIX}
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          maxLength={14}
          disabled={!canEdit}
          value={draft.contact}
          error={errors.contact ? t(errors.contact) : null}
          onChange={(event) => update({ contact: localMobile(event.target.value) })}
        />
      </fieldset>
      {canEdit ? (
        <button type="submit" className="button button--primary button--block" disabled={saving}>
          {t('antitheft.save')}
        </button>
      ) : null}
      {settings.updated_at ? <p className="muted small">{t('antitheft.saved', { time: formatDateTime(settings.updated_at) })}</p> : null}
    </form>
  );
}

/** What to do when the phone is lost: the steps, with the phone's IMEIs filled in. */
function LostPhoneSteps({ profile }: { profile: CustomerProfile }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="antitheft-lost-title" className="antitheft-lost">
      <h3 id="antitheft-lost-title">{t('antitheft.lost.title')}</h3>
      <ol className="antitheft-steps">
        <li>{t('antitheft.lost.step1')}</li>
        <li>{t('antitheft.lost.step2')}</li>
        <li>{t('antitheft.lost.step3')}</li>
        <li>
          {t('antitheft.lost.step4', { imei: profile.imei1 })}
          {profile.imei2 ? ` ${t('antitheft.lost.imei2', { imei: profile.imei2 })}` : null}
        </li>
        <li>{t('antitheft.lost.step5')}</li>
      </ol>
    </section>
  );
}

/** How long anti-theft is in force, and renewing it for another term with one key. */
function Cover({ settings, canRenew }: { settings: Antitheft; canRenew: boolean }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [renew, { isLoading }] = useRenewAntitheftMutation();
  const date = formatDate(settings.covered_until);
  const until = formatDate(renewedUntil(settings, todayInIndia()));
  return (
    <div className="antitheft-cover">
      {settings.in_cover ? <p className="small">{t('antitheft.coveredUntil', { date })}</p> : <p className="small antitheft-ended" role="status">{t('antitheft.ended', { date })}</p>}
      {canRenew ? (
        <button type="button" className="button button--secondary button--block" onClick={() => setAsking(true)}>
          {t('antitheft.renew', { count: settings.renewal_days })}
        </button>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={t('antitheft.renewTitle')}
        message={t('antitheft.renewBody', { count: settings.renewal_days, date: until })}
        confirmLabel={t('antitheft.renewConfirm')}
        busy={isLoading}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          void renew({ customer_id: settings.customer_id })
            .unwrap()
            .then(() => setAsking(false))
            .catch(() => undefined);
        }}
      />
    </div>
  );
}

/** Rings the phone to find it nearby; the command's progress shows in the device panel's history. */
function RingButton({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const [send, { isLoading }] = useSendDeviceCommandMutation();
  return (
    <div className="antitheft-ring">
      <button type="button" className="button button--secondary button--block" disabled={isLoading} onClick={() => void send({ customerId, request: { url: '/api/device/ring', body: { customer_id: customerId } } })}>
        {t('antitheft.ring')}
      </button>
      <p className="muted small">{t('antitheft.ringHint')}</p>
    </div>
  );
}

export function AntitheftSection({ customerId, profile, canEdit, enrolled }: { customerId: number; profile: CustomerProfile; canEdit: boolean; enrolled: boolean }) {
  const { t } = useTranslation();
  const { data: settings, isLoading, isError } = useGetAntitheftQuery(customerId);
  return (
    <section className="card" aria-labelledby="antitheft-title">
      <h2 id="antitheft-title">{t('antitheft.title')}</h2>
      <p className="small">{t('antitheft.intro')}</p>
      {isLoading ? (
        <Skeleton height={SKELETON_SMALL} />
      ) : !settings ? (
        <p className="muted">{isError ? t('antitheft.loadError') : null}</p>
      ) : (
        <>
          <Cover settings={settings} canRenew={canEdit} />
          <p className="small">{t('antitheft.alertsTo', { mobiles: settings.alert_mobiles.join(', ') })}</p>
          {profile.alt_mobile ? null : <p className="muted small">{t('antitheft.noAltMobile')}</p>}
          {/* Keyed by customer: a draft never follows the retailer to another customer's details. */}
          <SettingsForm key={customerId} settings={settings} canEdit={canEdit} />
        </>
      )}
      {enrolled && canEdit ? <RingButton customerId={customerId} /> : null}
      <LostPhoneSteps profile={profile} />
    </section>
  );
}
