/** Sends the customer's UNINSTALL or BYPASS_CODE OTP and keeps the request it belongs to. */
import { useState } from 'react';
import { withCountryPrefix } from '@kisht/domain/mobile';
import { useSendCustomerOtpMutation } from '../api/devices-api.ts';

export function useCustomerOtp(purpose: 'UNINSTALL' | 'BYPASS_CODE', mobile: string) {
  const [send, { isLoading }] = useSendCustomerOtpMutation();
  const [requestId, setRequestId] = useState<string | null>(null);
  async function request(): Promise<void> {
    try {
      const sent = await send({ mobile: withCountryPrefix(mobile), purpose }).unwrap();
      setRequestId(sent.request_id);
    } catch {
      // The base query has shown the reason.
    }
  }
  return { requestId, request, sending: isLoading };
}
