/** Sign-in step 1: the mobile number (+91 is shown and prepended), then an OTP by SMS. */
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { COUNTRY_PREFIX } from '@kisht/domain/constants';
import { isValidLocalMobile, withCountryPrefix } from '@kisht/domain/mobile';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { ROUTES } from '../../../shared/routes.ts';
import { localMobile } from '../../../shared/customers/field-input.ts';
import { useLoginWithOtpMutation } from '../api/auth-api.ts';
import { savePendingOtp } from '../hooks/otp-request.ts';
import { AuthFrame } from './auth-frame.tsx';
import './auth.css';

// The login screen is in the entry chunk; the request form (and the dialog it sits in) loads when first asked for.
const loadSignupDialog = () => import('./signup-dialog.tsx');
const SignupDialog = lazy(async () => ({ default: (await loadSignupDialog()).SignupDialog }));

export function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [mobile, setMobile] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [signupOpen, setSignupOpen] = useState(false);
  // Once opened the dialog stays mounted (closed), so what was typed survives closing it.
  const [signupMounted, setSignupMounted] = useState(false);
  const [loginWithOtp, { isLoading }] = useLoginWithOtpMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!mobile) return setError(t('common.required'));
    if (!isValidLocalMobile(mobile)) return setError(t('auth.login.invalidMobile'));
    setError(null);
    const full = withCountryPrefix(mobile);
    try {
      const requested = await loginWithOtp({ mobile: full }).unwrap();
      savePendingOtp({ ...requested, purpose: 'LOGIN', mobile: full, requestedAt: Date.now() });
      await navigate(ROUTES.otp);
    } catch {
      // The error toast already says what went wrong.
    }
  }

  return (
    <AuthFrame title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <form className="form" noValidate onSubmit={submit}>
        <TextField
          label={t('auth.login.mobileLabel')}
          prefix={COUNTRY_PREFIX}
          name="mobile"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={14}
          value={mobile}
          error={error}
          onChange={(event) => {
            setMobile(localMobile(event.target.value));
            if (error) setError(null);
          }}
        />
        <button type="submit" className="button button--primary button--block" disabled={isLoading}>
          {t('auth.login.sendOtp')}
        </button>
      </form>
      <p className="auth-alt">
        {t('auth.login.noAccount')}{' '}
        <button
          type="button"
          className="link-button"
          onPointerDown={() => void loadSignupDialog()}
          onClick={() => {
            setSignupMounted(true);
            setSignupOpen(true);
          }}
        >
          {t('auth.login.requestAccount')}
        </button>
      </p>
      <nav className="legal-links" aria-label={t('auth.login.legalLinks')}>
        <Link to={ROUTES.privacy_policy}>{t('nav.privacyPolicy')}</Link>
        <Link to={ROUTES.refund_policy}>{t('nav.refundPolicy')}</Link>
        <Link to={ROUTES.pricing}>{t('nav.pricing')}</Link>
      </nav>
      {signupMounted ? (
        <Suspense fallback={null}>
          <SignupDialog open={signupOpen} onClose={() => setSignupOpen(false)} />
        </Suspense>
      ) : null}
    </AuthFrame>
  );
}
