/**
 * EMI alerts: sending one (the server records it and delivers it to the phone through the device
 * channel) and the alerts sent. The EMI screen and the device panel both send them, so they live here.
 */
import type { Alert, AlertBody } from '@kisht/contract/emi';
import { api } from '../api/api.ts';

export const emiAlertApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendEmiAlert: build.mutation<Alert, AlertBody>({
      query: (body) => ({ url: '/api/emi/send_emialert', method: 'POST', body }),
      // The alert history gains a row, and the device panel a command to follow.
      invalidatesTags: (_result, error, body) =>
        error
          ? []
          : [
              { type: 'Alerts', id: body.customer_id },
              { type: 'Device', id: body.customer_id },
            ],
      extraOptions: { successKey: 'emiAlert.sent' },
    }),
    getEmiAlerts: build.query<Alert[], number>({
      query: (customerId) => ({ url: '/api/emi/emi_alerts', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Alerts', id: customerId }],
    }),
  }),
});

export const { useSendEmiAlertMutation, useGetEmiAlertsQuery } = emiAlertApi;

/** The alert body: the message trimmed, left out when empty (the server then writes its own). */
export function emiAlertBody(customerId: number, message: string): AlertBody {
  const text = message.trim();
  return text ? { customer_id: customerId, message: text } : { customer_id: customerId };
}
