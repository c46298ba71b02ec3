/** Organisation white-labelling, feature switches and access configuration, read from the RTK Query cache. */
import { createSelector } from '@reduxjs/toolkit';
import { DEFAULT_LOCK_ACCESS, DEFAULT_ORG_FEATURES, DEFAULT_USER_ACCESS } from '@kisht/domain/constants';
import type { AppConfigs, LockAccessConfig, OrgAppConfig, UserAccessConfig } from '@kisht/contract/config';
import { api, CACHE_FOR } from '../api/api.ts';
import type { RootState } from '../state/hooks.ts';

export const configApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrgAppConfig: build.query<OrgAppConfig, void>({
      query: () => '/api/organizations/get_org_app_config',
      keepUnusedDataFor: CACHE_FOR.config,
      providesTags: ['OrgConfig'],
    }),
    getAppConfigs: build.query<AppConfigs, void>({
      query: () => '/api/config/get_app_configs',
      keepUnusedDataFor: CACHE_FOR.config,
      providesTags: ['AppConfig'],
    }),
    getAccessConfig: build.query<LockAccessConfig, void>({
      query: () => '/api/config/access-config',
      keepUnusedDataFor: CACHE_FOR.config,
      providesTags: ['Access'],
    }),
    getUserAccess: build.query<UserAccessConfig, void>({
      query: () => '/api/user/user_access',
      keepUnusedDataFor: CACHE_FOR.config,
      providesTags: ['Access'],
    }),
  }),
});

export const { useGetOrgAppConfigQuery, useGetAppConfigsQuery, useGetAccessConfigQuery, useGetUserAccessQuery } =
  configApi;

// The specification's app_config, accessConfig and userAccessConfig, as selectors over the cache.
export const selectAppConfig = (state: RootState) => configApi.endpoints.getAppConfigs.select()(state).data;
export const selectFeatures = createSelector(selectAppConfig, (config) => config?.features ?? DEFAULT_ORG_FEATURES);
/** Lock access (lock, unlock, read, uninstall); the defaults until the server answers. */
export const selectAccessConfig = createSelector(
  (state: RootState) => configApi.endpoints.getAccessConfig.select()(state).data,
  (config): LockAccessConfig => config ?? DEFAULT_LOCK_ACCESS,
);
/** User access switches; the defaults until the server answers. */
export const selectUserAccessConfig = createSelector(
  (state: RootState) => configApi.endpoints.getUserAccess.select()(state).data,
  (config): UserAccessConfig => config ?? DEFAULT_USER_ACCESS,
);
