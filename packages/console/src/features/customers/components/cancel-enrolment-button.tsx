/**
 * Cancel enrolment, for a customer whose phone was never set up: after a confirmation the customer is
 * removed and its license key goes back; the server refuses once the phone enrolled or money was recorded.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { ROUTES } from '../../../shared/routes.ts';
import { useCancelEnrolmentMutation } from '../api/cancel-enrolment-api.ts';

export function CancelEnrolmentButton({ customerId, name }: { customerId: number; name: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [cancel, { isLoading }] = useCancelEnrolmentMutation();
  async function confirm() {
    try {
      await cancel(customerId).unwrap();
      setAsking(false);
      await navigate(ROUTES.customer_list, { replace: true });
    } catch {
      // The error toast says why (the phone was set up, or a payment was recorded).
      setAsking(false);
    }
  }
  return (
    <>
      <button type="button" className="button button--danger button--block" onClick={() => setAsking(true)}>
        {t('customerNavigate.cancel')}
      </button>
      <ConfirmDialog
        open={asking}
        title={t('customerNavigate.cancelTitle', { name })}
        message={t('customerNavigate.cancelConfirm')}
        confirmLabel={t('customerNavigate.cancel')}
        cancelLabel={t('customerNavigate.keep')}
        danger
        busy={isLoading}
        onCancel={() => setAsking(false)}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
