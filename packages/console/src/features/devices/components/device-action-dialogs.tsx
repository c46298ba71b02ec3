/**
 * The input each device action needs before it is sent: a confirmation, on or off, a message and a
 * number, a wallpaper text and policy, a PIN, or the customer's OTP and the retailer's location.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { withCountryPrefix } from '@kisht/domain/mobile';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { useSendDeviceCommandMutation } from '../api/devices-api.ts';
import {
  actionKind, deviceRequest, isValidLostModePhone, isValidPin, lockControlAction,
  type DeviceActionInput, type LostModeAction, type OnceAction, type SimTrackingAction, type ToggleAction, type UninstallAction, type WallpaperPolicy,
} from '../hooks/action-requests.ts';
import { browserGeolocation, captureLocation } from '../hooks/geolocation.ts';
import { useCustomerOtp } from '../hooks/use-customer-otp.ts';
import { CustomerOtpStep } from './customer-otp-step.tsx';
import { DEVICE_ACTION_LABEL_KEYS } from '../hooks/device-labels.ts';
import { ChoiceFormDialog } from '../../../shared/ui/form-dialog.tsx';
import { SendEmiAlertDialog } from '../../../shared/customers/send-emi-alert-dialog.tsx';

interface DialogProps {
  customerId: number;
  mobile: string;
  locked: boolean;
  onClose: () => void;
}

/** Sends one action's request; closes the dialog when the server took it. */
function useSend(customerId: number, onClose: () => void) {
  const [send, { isLoading }] = useSendDeviceCommandMutation();
  async function run(input: DeviceActionInput): Promise<void> {
    try {
      await send({ customerId, request: deviceRequest(customerId, input) }).unwrap();
      onClose();
    } catch {
      // The base query has shown the reason; the dialog stays open to try again.
    }
  }
  return { run, busy: isLoading };
}

function useActionLabel() {
  const { t } = useTranslation();
  return (action: string) => t(DEVICE_ACTION_LABEL_KEYS[action] ?? action);
}

function LockDialog({ customerId, locked, onClose }: DialogProps) {
  const { t } = useTranslation();
  const { run, busy } = useSend(customerId, onClose);
  const [message, setMessage] = useState('');
  const action = lockControlAction(locked);
  return (
    <ChoiceFormDialog
      title={action === 'lock' ? t('device.lockTitle') : t('device.unlockTitle')}
      busy={busy}
      onClose={onClose}
      onSubmit={() => void run({ kind: 'lock', locked, message })}
      choices={[{ value: action, label: action === 'lock' ? t('device.lock') : t('device.unlock'), danger: action === 'lock' }]}
    >
      <p>{action === 'lock' ? t('device.lockExplain') : t('device.unlockExplain')}</p>
      {action === 'lock' ? (
        <TextField label={t('common.optionalLabel', { label: t('device.lockMessage') })} maxLength={200} value={message} onChange={(e) => setMessage(e.target.value)} />
      ) : null}
    </ChoiceFormDialog>
  );
}

function OnOffDialog({ customerId, onClose, action }: DialogProps & { action: ToggleAction | SimTrackingAction }) {
  const { t } = useTranslation();
  const label = useActionLabel();
  const { run, busy } = useSend(customerId, onClose);
  const kind = actionKind(action) as 'toggle' | 'sim_tracking';
  return (
    <ChoiceFormDialog
      title={label(action)}
      busy={busy}
      onClose={onClose}
      onSubmit={(choice) =>
        void run(kind === 'toggle' ? { kind, action: action as ToggleAction, on: choice === 'on' } : { kind, action: action as SimTrackingAction, on: choice === 'on' })
      }
      choices={[
        { value: 'on', label: t('device.turnOn') },
        { value: 'off', label: t('device.turnOff') },
      ]}
    >
      <p>{t('device.toggleExplain')}</p>
    </ChoiceFormDialog>
  );
}

function LostModeDialog({ customerId, onClose, action }: DialogProps & { action: LostModeAction }) {
  const { t } = useTranslation();
  const label = useActionLabel();
  const { run, busy } = useSend(customerId, onClose);
  const [message, setMessage] = useState('');
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  function submit(choice: string) {
    if (!isValidLostModePhone(phone)) {
      setPhoneError(t('device.phoneInvalid'));
      return;
    }
    const number = phone.trim() ? (phone.trim().startsWith('+') ? phone.trim() : withCountryPrefix(phone)) : '';
    void run({ kind: 'lost_mode', action, on: choice === 'on', message, phone: number });
  }
  return (
    <ChoiceFormDialog
      title={label(action)}
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
      choices={[
        { value: 'on', label: t('device.turnOn') },
        { value: 'off', label: t('device.turnOff') },
      ]}
    >
      <TextField label={t('common.optionalLabel', { label: t('device.lostMessage') })} maxLength={200} value={message} onChange={(e) => setMessage(e.target.value)} />
      <TextField
        label={t('common.optionalLabel', { label: t('device.lostPhone') })}
        inputMode="tel"
        maxLength={14}
        value={phone}
        error={phoneError}
        onChange={(e) => {
          setPhone(e.target.value);
          setPhoneError(null);
        }}
      />
    </ChoiceFormDialog>
  );
}

function WallpaperDialog({ customerId, onClose }: DialogProps) {
  const { t } = useTranslation();
  const label = useActionLabel();
  const { run, busy } = useSend(customerId, onClose);
  const [text, setText] = useState('');
  const [policy, setPolicy] = useState<WallpaperPolicy>('alert');
  const [error, setError] = useState<string | null>(null);
  return (
    <ChoiceFormDialog
      title={label('wallpaper')}
      busy={busy}
      onClose={onClose}
      onSubmit={() => (text.trim() ? void run({ kind: 'wallpaper', text, policy }) : setError(t('common.required')))}
      choices={[{ value: 'send', label: t('device.send') }]}
    >
      <TextField
        label={t('device.wallpaperText')}
        maxLength={200}
        value={text}
        error={error}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
      />
      <SelectField label={t('device.wallpaperPolicy')} value={policy} onChange={(e) => setPolicy(e.target.value as WallpaperPolicy)}>
        <option value="alert">{t('device.policy.alert')}</option>
        <option value="wallpaper">{t('device.policy.wallpaper')}</option>
      </SelectField>
    </ChoiceFormDialog>
  );
}

function EmiAlertDialog({ customerId, onClose }: DialogProps) {
  const { t } = useTranslation();
  const label = useActionLabel();
  // The EMI screen's path: the alert is recorded in its history and reaches the phone as a device command.
  return <SendEmiAlertDialog customerId={customerId} title={label('emi_alert')} intro={t('device.emiAlertExplain')} submitLabel={t('device.send')} onClose={onClose} />;
}

function OnceDialog({ customerId, onClose, action }: DialogProps & { action: OnceAction }) {
  const { t } = useTranslation();
  const label = useActionLabel();
  const { run, busy } = useSend(customerId, onClose);
  return (
    <ChoiceFormDialog title={label(action)} busy={busy} onClose={onClose} onSubmit={() => void run({ kind: 'once', action })} choices={[{ value: 'send', label: t('device.send') }]}>
      <p>{t('device.onceExplain', { action: label(action) })}</p>
    </ChoiceFormDialog>
  );
}

function PinDialog({ customerId, onClose }: DialogProps) {
  const { t } = useTranslation();
  const label = useActionLabel();
  const { run, busy } = useSend(customerId, onClose);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <ChoiceFormDialog
      title={label('pin_change')}
      busy={busy}
      onClose={onClose}
      onSubmit={() => (isValidPin(pin) ? void run({ kind: 'pin_change', pin }) : setError(t('device.pinInvalid')))}
      choices={[{ value: 'send', label: t('device.setPin') }]}
    >
      <TextField
        label={t('device.newPin')}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={8}
        value={pin}
        error={error}
        hint={t('device.pinHint')}
        onChange={(e) => {
          setPin(e.target.value.replace(/\D/g, ''));
          setError(null);
        }}
      />
    </ChoiceFormDialog>
  );
}

function UninstallDialog({ customerId, mobile, onClose, action }: DialogProps & { action: UninstallAction }) {
  const { t } = useTranslation();
  const label = useActionLabel();
  const otp = useCustomerOtp('UNINSTALL', mobile);
  const { run, busy } = useSend(customerId, onClose);
  const [locating, setLocating] = useState(false);

  async function submit() {
    if (!otp.requestId) return void otp.request();
    if (!otp.check()) return;
    setLocating(true);
    const location = await captureLocation(browserGeolocation());
    setLocating(false);
    await run({ kind: 'uninstall', action, requestId: otp.requestId, otp: otp.code, location });
  }

  return (
    <ChoiceFormDialog
      title={label(action)}
      busy={busy || locating || otp.sending}
      onClose={onClose}
      onSubmit={() => void submit()}
      choices={[otp.requestId ? { value: 'uninstall', label: t('device.uninstallNow'), danger: true } : { value: 'otp', label: t('device.sendOtp') }]}
    >
      <p>{t('device.uninstallExplain')}</p>
      <CustomerOtpStep otp={otp} resend />
      {locating ? (
        <p className="muted small" role="status">
          {t('device.locating')}
        </p>
      ) : null}
    </ChoiceFormDialog>
  );
}

/** The dialog for one offered action. */
export function DeviceActionDialog({ action, ...props }: DialogProps & { action: string }) {
  switch (actionKind(action)) {
    case 'lock':
      return <LockDialog {...props} />;
    case 'toggle':
    case 'sim_tracking':
      return <OnOffDialog {...props} action={action as ToggleAction | SimTrackingAction} />;
    case 'lost_mode':
      return <LostModeDialog {...props} action={action as LostModeAction} />;
    case 'wallpaper':
      return <WallpaperDialog {...props} />;
    case 'emi_alert':
      return <EmiAlertDialog {...props} />;
    case 'once':
      return <OnceDialog {...props} action={action as OnceAction} />;
    case 'pin_change':
      return <PinDialog {...props} />;
    case 'uninstall':
      return <UninstallDialog {...props} action={action as UninstallAction} />;
    default:
      return null;
  }
}
