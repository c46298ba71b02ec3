/**
 * Family care on customer details, for a phone sold with family care (decision 024): until when it is in force (and
 * renewing it with a key), whether the phone keeps the parent's latest rules, the rules themselves, where to find the
 * phone, and the phone's screen time per day and per app, refreshed as the phone reports it (the usage event).
 * The app layer puts it in the device channel's sections (features do not import each other).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FamilyCare } from '@kisht/contract/familycare';
import { formatDate, formatDateTime, todayInIndia } from '@kisht/domain/format';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { useGetFamilyCareQuery, useRenewFamilyCareMutation } from '../api/familycare-api.ts';
import { renewedUntil } from '../hooks/cover.ts';
import { isOffline } from '../../../shared/api/api-failure.ts';
import { rulesState } from '../hooks/rules-form.ts';
import { RulesForm } from './rules-form.tsx';
import { UsageSection } from './usage-section.tsx';
import './familycare.css';

export interface FamilyCareSectionProps {
  customerId: number;
  /** The user's feature switch: setting rules and renewing (the server refuses them without it). */
  canEdit: boolean;
  /** The phone has enrolled: rules set before then wait for it. */
  enrolled: boolean;
}

/** How long family care is in force, and renewing it for another term with one key. */
function Cover({ familyCare, canRenew }: { familyCare: FamilyCare; canRenew: boolean }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [renew, { isLoading }] = useRenewFamilyCareMutation();
  const date = formatDate(familyCare.covered_until);
  return (
    <div className="familycare-cover">
      {familyCare.in_cover ? (
        <p className="small">{t('familycare.coveredUntil', { date })}</p>
      ) : (
        <p className="small familycare-ended" role="status">
          {t('familycare.ended', { date })}
        </p>
      )}
      {canRenew ? (
        <button type="button" className="button button--secondary button--block" onClick={() => setAsking(true)}>
          {t('familycare.renew', { count: familyCare.renewal_days })}
        </button>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={t('familycare.renewTitle')}
        message={t('familycare.renewBody', { count: familyCare.renewal_days, date: formatDate(renewedUntil(familyCare, todayInIndia())) })}
        confirmLabel={t('familycare.renewConfirm')}
        busy={isLoading}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          void renew({ customer_id: familyCare.customer_id })
            .unwrap()
            .then(() => setAsking(false))
            .catch(() => undefined);
        }}
      />
    </div>
  );
}

/** Whether the phone keeps the latest rules: it confirms each version it takes (the command event refreshes this). */
function RulesStatus({ familyCare, enrolled }: { familyCare: FamilyCare; enrolled: boolean }) {
  const { t } = useTranslation();
  const state = rulesState(familyCare);
  const tone = state === 'applied' ? 'success' : state === 'waiting' ? 'warning' : 'neutral';
  const text =
    state === 'none' ? t('familycare.status.none')
      : state === 'applied' ? t('familycare.status.applied', { version: String(familyCare.version) })
        : enrolled ? t('familycare.status.waiting', { version: String(familyCare.version) })
          : t('familycare.status.waitingEnrolment');
  return (
    <p className={`familycare-status familycare-status--${tone}`} role="status">
      {text}
    </p>
  );
}

export function FamilyCareSection({ customerId, canEdit, enrolled }: FamilyCareSectionProps) {
  const { t } = useTranslation();
  const { data: familyCare, isLoading, isError, error, refetch } = useGetFamilyCareQuery(customerId);
  return (
    <>
      <section className="card" aria-labelledby="familycare-title">
        <h2 id="familycare-title">{t('familycare.title')}</h2>
        <p className="small">{t('familycare.intro')}</p>
        {isLoading ? (
          <Skeleton height={SKELETON_SMALL} />
        ) : !familyCare ? (
          isError ? <LoadErrorCard message={isOffline(error) ? t('familycare.offline') : t('familycare.loadError')} onRetry={() => void refetch()} /> : null
        ) : (
          <>
            <Cover familyCare={familyCare} canRenew={canEdit} />
            <RulesStatus familyCare={familyCare} enrolled={enrolled} />
            {familyCare.rules?.lock_until && Date.parse(familyCare.rules.lock_until) > Date.now() ? (
              <p className="small">{t('familycare.lockedUntil', { time: formatDateTime(familyCare.rules.lock_until) })}</p>
            ) : null}
            {/* Keyed by customer: a draft never follows the retailer to another customer's details. */}
            <RulesForm key={customerId} familyCare={familyCare} canEdit={canEdit} />
          </>
        )}
        <p className="muted small">{t('familycare.findPhone', { action: t('device.action.fetch_location'), panel: t('device.panelTitle') })}</p>
      </section>
      <UsageSection customerId={customerId} />
    </>
  );
}
