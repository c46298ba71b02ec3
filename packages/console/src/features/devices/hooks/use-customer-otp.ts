/** Sends the customer's UNINSTALL or BYPASS_CODE OTP, keeps the request it belongs to and the code typed. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { withCountryPrefix } from '@kisht/domain/mobile';
import { useSendCustomerOtpMutation } from '../api/devices-api.ts';
import { isValidOtp } from './action-requests.ts';

export function useCustomerOtp(purpose: 'UNINSTALL' | 'BYPASS_CODE', mobile: string) {
  const { t } = useTranslation();
  const [send, { isLoading }] = useSendCustomerOtpMutation();
  const [requestId, setRequestId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function request(): Promise<void> {
    try {
      const sent = await send({ mobile: withCountryPrefix(mobile), purpose }).unwrap();
      setRequestId(sent.request_id);
    } catch {
      // The base query has shown the reason.
    }
  }
  return {
    mobile,
    requestId,
    request,
    sending: isLoading,
    code,
    error,
    type(value: string) {
      setCode(value);
      setError(null);
    },
    /** Whether the code typed can be sent; says why not under the field. */
    check(): boolean {
      if (isValidOtp(code)) return true;
      setError(t('device.otpInvalid'));
      return false;
    },
  };
}
export type CustomerOtp = ReturnType<typeof useCustomerOtp>;
