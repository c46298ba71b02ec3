/** The customer's OTP step of a dialog: where the OTP goes, then its field once sent (and a resend link). */
import { useTranslation } from 'react-i18next';
import { maskMobile, withCountryPrefix } from '@kisht/domain/mobile';
import { TextField } from '../../../shared/ui/text-field.tsx';
import type { CustomerOtp } from '../hooks/use-customer-otp.ts';

export function CustomerOtpStep({ otp, resend = false }: { otp: CustomerOtp; resend?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="muted small">{t('device.otpGoesTo', { mobile: maskMobile(withCountryPrefix(otp.mobile)) })}</p>
      {otp.requestId ? (
        <>
          <TextField
            label={t('device.customerOtp')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className="field--code"
            value={otp.code}
            error={otp.error}
            onChange={(e) => otp.type(e.target.value.replace(/\D/g, ''))}
          />
          {resend ? (
            <button type="button" className="link-button" onClick={() => void otp.request()} disabled={otp.sending}>
              {t('device.resendOtp')}
            </button>
          ) : null}
        </>
      ) : null}
    </>
  );
}
