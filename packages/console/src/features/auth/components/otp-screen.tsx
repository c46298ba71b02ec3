/** Sign-in step 2 (and MPIN reset step 1): the six-digit OTP, with a resend countdown. */
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { ROUTES } from '../../../shared/routes.ts';
import { useResendOtpMutation, useVerifyOtpAuthMutation } from '../api/auth-api.ts';
import { clearPendingOtp, holdResetCode, readPendingOtp, savePendingOtp, type PendingOtp } from '../hooks/otp-request.ts';
import { useCountdown } from '../hooks/use-countdown.ts';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in.ts';
import { AuthFrame } from './auth-frame.tsx';
import './auth.css';

/** What the MPIN reset screen hands back when the server refused the OTP. */
export interface OtpScreenState {
  problem?: string;
  attemptsLeft?: number;
}

const OTP_PATTERN = /^\d{6}$/;

export function OtpScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const handedBack = (location.state ?? {}) as OtpScreenState;
  // The route's loader guarantees a pending request.
  const [request, setRequest] = useState<PendingOtp>(() => readPendingOtp()!);
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(handedBack.problem ?? null);
  const [attemptsLeft, setAttemptsLeft] = useState<number | null>(handedBack.attemptsLeft ?? null);
  const [verifyOtp, verifying] = useVerifyOtpAuthMutation();
  const [resendOtp, resending] = useResendOtpMutation();
  const completeSignIn = useCompleteSignIn();
  const resendIn = useCountdown(request.requestedAt + request.resend_after_seconds * 1000);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!otp) return setError(t('common.required'));
    if (!OTP_PATTERN.test(otp)) return setError(t('auth.otp.invalidFormat'));
    setError(null);
    if (request.purpose === 'FORGOT_PASSWORD') {
      // The server checks this OTP together with the new MPIN (reset-password).
      holdResetCode({ request_id: request.request_id, otp });
      await navigate(ROUTES.m_pin, { state: { mode: 'reset' } });
      return;
    }
    try {
      await completeSignIn(await verifyOtp({ request_id: request.request_id, otp }).unwrap());
    } catch (failure) {
      if (isApiFailure(failure)) {
        setError(failure.message);
        setAttemptsLeft(failure.attemptsLeft ?? null);
      }
    }
  }

  async function resend() {
    try {
      const renewed = await resendOtp({ request_id: request.request_id }).unwrap();
      const next: PendingOtp = { ...request, ...renewed, requestedAt: Date.now() };
      savePendingOtp(next);
      setRequest(next);
      setOtp('');
      setError(null);
      setAttemptsLeft(null);
    } catch {
      // The error toast already says what went wrong.
    }
  }

  async function back() {
    clearPendingOtp();
    await navigate(request.purpose === 'LOGIN' ? ROUTES.login : ROUTES.m_pin, { replace: true });
  }

  const title = request.purpose === 'LOGIN' ? t('auth.otp.title') : t('auth.otp.resetTitle');
  return (
    <AuthFrame title={title} subtitle={t('auth.otp.sentTo', { mobile: request.mobile })}>
      <form className="form" noValidate onSubmit={submit}>
        <TextField
          label={t('auth.otp.label')}
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className="field--code"
          value={otp}
          error={error}
          onChange={(event) => {
            setOtp(event.target.value.replace(/\D/g, '').slice(0, 6));
            if (error) setError(null);
          }}
        />
        {attemptsLeft !== null ? (
          <p className="attempts" role="status">
            {t('auth.attemptsLeft', { attempts: attemptsLeft })}
          </p>
        ) : null}
        <button type="submit" className="button button--primary button--block" disabled={verifying.isLoading}>
          {t('auth.otp.verify')}
        </button>
      </form>
      <div className="auth-row">
        <button type="button" className="button button--secondary" onClick={back}>
          {t('common.back')}
        </button>
        <button type="button" className="button button--secondary" onClick={resend} disabled={resendIn > 0 || resending.isLoading}>
          {resendIn > 0 ? t('auth.otp.resendIn', { seconds: resendIn }) : t('auth.otp.resend')}
        </button>
      </div>
    </AuthFrame>
  );
}
