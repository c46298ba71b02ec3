/** Codes the phone checks without a network: offline unlock and lock codes, the time code, and the bypass code (after the customer's OTP). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OfflineCode } from '@kisht/contract/devices';
import { useGetBypassCodeMutation, useGetOfflineCodeMutation, useLazyGetOucCodeQuery } from '../api/devices-api.ts';
import { useCustomerOtp } from '../hooks/use-customer-otp.ts';
import { CodeDialog, copyCode, CodeView } from './code-dialog.tsx';
import { ChoiceFormDialog } from '../../../shared/ui/form-dialog.tsx';
import { CustomerOtpStep } from './customer-otp-step.tsx';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import './devices.css';

type Shown = { title: string; code: OfflineCode | null };

function BypassCodeDialog({ customerId, mobile, onClose }: { customerId: number; mobile: string; onClose: () => void }) {
  const { t } = useTranslation();
  const otp = useCustomerOtp('BYPASS_CODE', mobile);
  const [getCode, { isLoading }] = useGetBypassCodeMutation();
  const [result, setResult] = useState<OfflineCode | null>(null);

  async function submit() {
    if (!otp.requestId) return void otp.request();
    if (!otp.check()) return;
    try {
      setResult(await getCode({ customer_id: customerId, request_id: otp.requestId, otp: otp.code }).unwrap());
    } catch {
      // Shown by the base query.
    }
  }

  if (result) {
    return (
      <Dialog
        open
        title={t('device.codes.bypass')}
        onClose={onClose}
        actions={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              {t('common.close')}
            </button>
            <button type="button" className="button button--primary" onClick={() => void copyCode(result.code)}>
              {t('device.code.copy')}
            </button>
          </>
        }
      >
        <CodeView code={result} />
      </Dialog>
    );
  }
  return (
    <ChoiceFormDialog
      title={t('device.codes.bypass')}
      busy={isLoading || otp.sending}
      onClose={onClose}
      onSubmit={() => void submit()}
      choices={[otp.requestId ? { value: 'code', label: t('device.codes.getCode') } : { value: 'otp', label: t('device.sendOtp') }]}
    >
      <p>{t('device.codes.bypassExplain')}</p>
      <CustomerOtpStep otp={otp} />
    </ChoiceFormDialog>
  );
}

export function OfflineCodes({ customerId, mobile, canLock, canUnlock }: { customerId: number; mobile: string; canLock: boolean; canUnlock: boolean }) {
  const { t } = useTranslation();
  const [getOfflineCode, offline] = useGetOfflineCodeMutation();
  const [getOuc, ouc] = useLazyGetOucCodeQuery();
  const [shown, setShown] = useState<Shown | null>(null);
  const [bypass, setBypass] = useState(false);

  async function offlineCode(action: 'lock' | 'unlock') {
    try {
      const code = await getOfflineCode({ customer_id: customerId, action }).unwrap();
      setShown({ title: action === 'unlock' ? t('device.codes.unlock') : t('device.codes.lock'), code });
    } catch {
      // Shown by the base query.
    }
  }
  async function timeCode() {
    try {
      setShown({ title: t('device.codes.time'), code: await getOuc(customerId, false).unwrap() });
    } catch {
      // Shown by the base query.
    }
  }

  const busy = offline.isLoading || ouc.isFetching;
  return (
    <section aria-labelledby="offline-codes-title" className="device-block">
      <h3 id="offline-codes-title">{t('device.codes.title')}</h3>
      <p className="muted small">{t('device.codes.explain')}</p>
      <div className="action-grid">
        <button type="button" className="button button--secondary button--small" disabled={!canUnlock || busy} onClick={() => void offlineCode('unlock')}>
          {t('device.codes.unlock')}
        </button>
        <button type="button" className="button button--secondary button--small" disabled={!canLock || busy} onClick={() => void offlineCode('lock')}>
          {t('device.codes.lock')}
        </button>
        <button type="button" className="button button--secondary button--small" disabled={!canUnlock || busy} onClick={() => void timeCode()}>
          {t('device.codes.time')}
        </button>
        <button type="button" className="button button--secondary button--small" disabled={!canUnlock} onClick={() => setBypass(true)}>
          {t('device.codes.bypass')}
        </button>
      </div>
      {shown ? <CodeDialog title={shown.title} code={shown.code} onClose={() => setShown(null)} /> : null}
      {bypass ? <BypassCodeDialog customerId={customerId} mobile={mobile} onClose={() => setBypass(false)} /> : null}
    </section>
  );
}
