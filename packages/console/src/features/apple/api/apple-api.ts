/** Apple phones: the details screen, Apple Business Manager sync and link, Activation Lock, the one-mode app. */
import type { AppleCustomerBody, AppleDepDevice, AppleDetails, AppleQr, AppleSyncResult, AppleUpdateBody } from '@kisht/contract/apple';
import type { DeviceCommand } from '@kisht/contract/devices';
import { api } from '../../../shared/api/api.ts';

const apiWithAppleTags = api.enhanceEndpoints({ addTagTypes: ['AppleDetails', 'AppleDevices'] });

export const appleApi = apiWithAppleTags.injectEndpoints({
  endpoints: (build) => ({
    getAppleDetails: build.query<AppleDetails, number>({
      query: (customerId) => ({ url: '/api/apple/details', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'AppleDetails', id: customerId }],
    }),
    getAppleQr: build.query<AppleQr, number>({
      query: (customerId) => ({ url: '/api/apple/qr', params: { customer_id: customerId } }),
      // A fresh single-use token every time the screen asks.
      keepUnusedDataFor: 0,
    }),
    getAppleDevices: build.query<AppleDepDevice[], void>({
      query: () => '/api/apple/devices',
      providesTags: ['AppleDevices'],
    }),
    syncAppleDevices: build.mutation<AppleSyncResult, void>({
      query: () => ({ url: '/api/apple/sync', method: 'POST' }),
      invalidatesTags: ['AppleDevices', 'AppleDetails'],
    }),
    updateAppleDevice: build.mutation<AppleDepDevice, AppleUpdateBody>({
      query: (body) => ({ url: '/api/apple/update', method: 'POST', body }),
      invalidatesTags: ['AppleDevices', 'AppleDetails'],
    }),
    disableActivationLock: build.mutation<AppleDetails, AppleCustomerBody>({
      query: (body) => ({ url: '/api/apple/disable_activation_lock', method: 'POST', body }),
      invalidatesTags: (_result, _error, body) => [{ type: 'AppleDetails', id: body.customer_id }],
      extraOptions: { successKey: 'apple.toast.activationLockOff' },
    }),
    installOneModeApp: build.mutation<DeviceCommand, AppleCustomerBody>({
      query: (body) => ({ url: '/api/apple/install_onemodapp', method: 'POST', body }),
      invalidatesTags: (_result, _error, body) => [{ type: 'AppleDetails', id: body.customer_id }],
    }),
  }),
});

export const {
  useGetAppleDetailsQuery, useLazyGetAppleQrQuery, useGetAppleDevicesQuery, useSyncAppleDevicesMutation, useUpdateAppleDeviceMutation,
  useDisableActivationLockMutation, useInstallOneModeAppMutation,
} = appleApi;
