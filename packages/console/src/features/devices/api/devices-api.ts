/**
 * The device panel of customer details: what the phone reported, the offered actions and the latest
 * commands (refreshed by the server's event stream as they move), every device action, offline codes and schedules.
 */
import type { OtpRequested, SendOtpToUserBody } from '@kisht/contract/auth';
import type { BypassCodeBody, DeviceCommand, DevicePanel, OfflineCode, Schedule, ScheduleBody } from '@kisht/contract/devices';
import { api } from '../../../shared/api/api.ts';
import { tagsAfterDeviceChange } from '../../../shared/api/cache-tags.ts';
import { profileMayHaveChanged, withCommand } from '../hooks/command-status.ts';
import type { DeviceRequest } from '../hooks/action-requests.ts';

export const devicesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDevicePanel: build.query<DevicePanel, number>({
      query: (customerId) => ({ url: '/api/device/details', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Device', id: customerId }],
      // The panel shows its own error card; a failing poll must not toast every two seconds.
      extraOptions: { quiet: true },
      async onQueryStarted(customerId, { dispatch, queryFulfilled, getCacheEntry }) {
        const previous = getCacheEntry().data;
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data && profileMayHaveChanged(previous, data)) dispatch(api.util.invalidateTags(tagsAfterDeviceChange(customerId)));
      },
    }),
    sendDeviceCommand: build.mutation<DeviceCommand, { customerId: number; request: DeviceRequest }>({
      query: ({ request }) => ({ url: request.url, method: 'POST', body: request.body }),
      extraOptions: { successKey: 'device.toast.commandSent' },
      async onQueryStarted({ customerId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        // The new command shows at once; the server's events refresh it as the phone answers.
        if (data) {
          dispatch(
            devicesApi.util.updateQueryData('getDevicePanel', customerId, (panel) => {
              panel.commands = withCommand(panel.commands, data);
            }),
          );
        }
      },
    }),
    sendCustomerOtp: build.mutation<OtpRequested, SendOtpToUserBody>({
      query: (body) => ({ url: '/api/auth/send-otp-to-user', method: 'POST', body }),
      extraOptions: { successKey: 'device.toast.otpSent' },
    }),
    getOfflineCode: build.mutation<OfflineCode, { customer_id: number; action: 'lock' | 'unlock' }>({
      query: (body) => ({ url: '/api/auth/offline_lock_unlock', method: 'POST', body }),
    }),
    getOucCode: build.query<OfflineCode, number>({
      query: (customerId) => ({ url: '/api/customer/ouc-code', params: { customer_id: customerId } }),
      // A time code: never shown from the cache.
      keepUnusedDataFor: 0,
    }),
    getBypassCode: build.mutation<OfflineCode, BypassCodeBody>({
      query: (body) => ({ url: '/api/device/bypass_code', method: 'POST', body }),
    }),
    getSchedules: build.query<Schedule[], number>({
      query: (customerId) => ({ url: '/api/device/schedules', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'DeviceSchedule', id: customerId }],
    }),
    scheduleLockUnlock: build.mutation<Schedule, ScheduleBody>({
      query: (body) => ({ url: '/api/device/schedule_lock_unlock', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : [{ type: 'DeviceSchedule', id: body.customer_id }]),
      extraOptions: { successKey: 'device.toast.scheduled' },
    }),
    cancelSchedule: build.mutation<Schedule, { schedule_id: number; customerId: number }>({
      query: ({ schedule_id }) => ({ url: '/api/device/schedule_cancel', method: 'POST', body: { schedule_id } }),
      invalidatesTags: (_result, _error, { customerId }) => [{ type: 'DeviceSchedule', id: customerId }],
      extraOptions: { successKey: 'device.toast.scheduleCancelled' },
    }),
  }),
});

export const {
  useGetDevicePanelQuery,
  useSendDeviceCommandMutation,
  useSendCustomerOtpMutation,
  useGetOfflineCodeMutation,
  useLazyGetOucCodeQuery,
  useGetBypassCodeMutation,
  useGetSchedulesQuery,
  useScheduleLockUnlockMutation,
  useCancelScheduleMutation,
} = devicesApi;
