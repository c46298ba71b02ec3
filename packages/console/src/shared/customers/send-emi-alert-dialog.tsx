/**
 * Sends an EMI alert to the customer's phone (POST send_emialert): recorded in the alert history and carried to
 * the phone as a device command. The EMI screen and the device panel word it their own way.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../ui/form-dialog.tsx';
import { TextField } from '../ui/text-field.tsx';
import { emiAlertBody, useSendEmiAlertMutation } from './emi-alert-api.ts';

const MESSAGE_MAX = 300;

export function SendEmiAlertDialog({ customerId, title, intro, submitLabel, onClose }: { customerId: number; title: string; intro: string; submitLabel: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState('');
  const [send, { isLoading }] = useSendEmiAlertMutation();
  async function submit() {
    try {
      await send(emiAlertBody(customerId, message)).unwrap();
      onClose();
    } catch {
      // The base query has shown the reason; the dialog stays open to try again.
    }
  }
  return (
    <FormDialog title={title} busy={isLoading} onClose={onClose} onSubmit={() => void submit()} submitLabel={submitLabel}>
      <p>{intro}</p>
      <TextField
        label={t('common.optionalLabel', { label: t('emiAlert.message') })}
        maxLength={MESSAGE_MAX}
        value={message}
        onChange={(event) => setMessage(event.target.value)}
      />
    </FormDialog>
  );
}
