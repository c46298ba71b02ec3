/**
 * The MPIN: set it once (enter + confirm), enter it on every page load, or choose a new one after
 * "Forgot MPIN?" (forgot-password -> OTP -> new MPIN -> reset-password -> back to entering it).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { readStored, writeStored } from '../../../shared/storage.ts';
import { useAppDispatch } from '../../../shared/state/hooks.ts';
import { sessionUnlocked } from '../../../shared/state/session-slice.ts';
import { useSignOut } from '../../../shared/auth/use-sign-out.ts';
import { ROUTES, safeNextPath } from '../../../shared/routes.ts';
import { digitsOnly } from '../../../shared/customers/field-input.ts';
import {
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useSetMpinMutation,
  useVerifyMpinMutation,
} from '../api/auth-api.ts';
import { clearPendingOtp, dropResetCode, heldResetCode, savePendingOtp } from '../hooks/otp-request.ts';
import type { OtpScreenState } from './otp-screen.tsx';
import { AuthFrame } from './auth-frame.tsx';
import './auth.css';

type Mode = 'enter' | 'set' | 'reset';
const MPIN_PATTERN = /^\d{4}$/;
const OTP_CODES = new Set(['OTP_INVALID', 'OTP_EXPIRED', 'OTP_ATTEMPTS_EXCEEDED']);

function initialMode(requested: unknown): Mode {
  if (requested === 'reset' && heldResetCode()) return 'reset';
  return readStored('mpin') === '1' ? 'enter' : 'set';
}

const MPIN_LENGTH = 4;

export function MpinScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const dispatch = useAppDispatch();
  const signOut = useSignOut();
  const [mode, setMode] = useState<Mode>(() => initialMode((location.state as { mode?: string } | null)?.mode));
  const [mpin, setMpin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ mpin?: string; confirm?: string }>({});
  const [attemptsLeft, setAttemptsLeft] = useState<number | null>(null);
  const [verifyMpin, verifying] = useVerifyMpinMutation();
  const [saveMpin, saving] = useSetMpinMutation();
  const [resetPassword, resetting] = useResetPasswordMutation();
  const [forgotPassword, requesting] = useForgotPasswordMutation();
  const busy = verifying.isLoading || saving.isLoading || resetting.isLoading || requesting.isLoading;

  useEffect(() => {
    writeStored('mpinType', mode);
  }, [mode]);

  function switchMode(next: Mode) {
    setMode(next);
    setMpin('');
    setConfirm('');
    setErrors({});
    setAttemptsLeft(null);
  }

  async function unlock() {
    writeStored('mpin', '1');
    writeStored('mpinType', 'enter');
    dispatch(sessionUnlocked());
    await navigate(safeNextPath(params.get('next')) ?? ROUTES.dashboard, { replace: true });
  }

  function validate(): boolean {
    const found: { mpin?: string; confirm?: string } = {};
    if (!mpin) found.mpin = t('common.required');
    else if (!MPIN_PATTERN.test(mpin)) found.mpin = t('auth.mpin.invalidFormat');
    if (mode !== 'enter') {
      if (!confirm) found.confirm = t('common.required');
      else if (confirm !== mpin) found.confirm = t('auth.mpin.mismatch');
    }
    setErrors(found);
    return Object.keys(found).length === 0;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!validate()) return;
    try {
      if (mode === 'enter') {
        await verifyMpin({ mpin }).unwrap();
        await unlock();
      } else if (mode === 'set') {
        await saveMpin({ mpin }).unwrap();
        await unlock();
      } else {
        const code = heldResetCode();
        if (!code) return switchMode('enter');
        await resetPassword({ ...code, mpin }).unwrap();
        dropResetCode();
        clearPendingOtp();
        writeStored('mpin', '1');
        switchMode('enter');
        await navigate(ROUTES.m_pin + location.search, { replace: true, state: null });
      }
    } catch (failure) {
      if (!isApiFailure(failure)) return;
      if (failure.code === 'MPIN_NOT_SET') return switchMode('set');
      if (failure.code === 'MPIN_ALREADY_SET') return switchMode('enter');
      if (failure.code === 'MPIN_LOCKED') return void signOut();
      if (mode === 'reset' && OTP_CODES.has(failure.code)) {
        // The OTP was wrong or stale: back to it, carrying what the server said.
        dropResetCode();
        const state: OtpScreenState = { problem: failure.message };
        if (failure.attemptsLeft !== undefined) state.attemptsLeft = failure.attemptsLeft;
        await navigate(ROUTES.otp, { replace: true, state });
        return;
      }
      setErrors({ mpin: failure.message });
      setAttemptsLeft(failure.attemptsLeft ?? null);
    }
  }

  async function forgot() {
    const mobile = readStored('phone');
    if (!mobile) return void signOut();
    try {
      const requested = await forgotPassword({ mobile }).unwrap();
      savePendingOtp({ ...requested, purpose: 'FORGOT_PASSWORD', mobile, requestedAt: Date.now() });
      await navigate(ROUTES.otp);
    } catch {
      // The error toast already says what went wrong.
    }
  }

  const copy = {
    enter: { title: t('auth.mpin.enterTitle'), subtitle: t('auth.mpin.enterSubtitle'), submit: t('auth.mpin.verify') },
    set: { title: t('auth.mpin.setTitle'), subtitle: t('auth.mpin.setSubtitle'), submit: t('auth.mpin.save') },
    reset: { title: t('auth.mpin.resetTitle'), subtitle: t('auth.mpin.resetSubtitle'), submit: t('auth.mpin.save') },
  }[mode];

  return (
    <AuthFrame title={copy.title} subtitle={copy.subtitle}>
      <form className="form" noValidate onSubmit={submit}>
        <TextField
          label={mode === 'enter' ? t('auth.mpin.label') : t('auth.mpin.newLabel')}
          name="mpin"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          className="field--code"
          value={mpin}
          error={errors.mpin}
          onChange={(event) => setMpin(digitsOnly(event.target.value, MPIN_LENGTH))}
        />
        {mode !== 'enter' ? (
          <TextField
            label={t('auth.mpin.confirmLabel')}
            name="confirm-mpin"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            className="field--code"
            value={confirm}
            error={errors.confirm}
            onChange={(event) => setConfirm(digitsOnly(event.target.value, MPIN_LENGTH))}
          />
        ) : null}
        {attemptsLeft !== null ? (
          <p className="attempts" role="status">
            {t('auth.attemptsLeft', { attempts: attemptsLeft })}
          </p>
        ) : null}
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {copy.submit}
        </button>
      </form>
      <div className="auth-row">
        {mode === 'enter' ? (
          <button type="button" className="link-button" onClick={forgot} disabled={busy}>
            {t('auth.mpin.forgot')}
          </button>
        ) : null}
        {mode === 'reset' ? (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              dropResetCode();
              clearPendingOtp();
              switchMode('enter');
            }}
          >
            {t('common.cancel')}
          </button>
        ) : null}
        <button type="button" className="link-button" onClick={() => void signOut()}>
          {t('auth.mpin.useOtp')}
        </button>
      </div>
    </AuthFrame>
  );
}
