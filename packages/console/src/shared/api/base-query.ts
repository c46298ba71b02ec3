/**
 * The one HTTP client: fetchBaseQuery wrapped with the platform headers, the response envelope,
 * the global loading flag, HTTP 511 handling and the toasts.
 */
import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError, type FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
import { APP_ORG_ID, HTTP_SESSION_INVALID } from '@kisht/domain/constants';
import type { OkReply } from '@kisht/contract/envelope';
import { buildRequestHeaders } from './headers.ts';
import { createInFlightCounter } from './in-flight.ts';
import { describeFailure, successMessage, type ApiFailure } from './api-failure.ts';
import { readStored } from '../storage.ts';
import { describeClient, storedDeviceDetails } from '../device-details.ts';
import { resolveOrgId } from '../auth/token.ts';
import { endInvalidSession } from '../auth/session-invalid.ts';
import { translator } from '../i18n/i18n.ts';
import { toastError, toastSuccess } from '../ui/toast-store.ts';
import { setApiLoading } from '../state/main-slice.ts';

export const REQUEST_TIMEOUT_MS = 15_000;
const API_BASE_URL = import.meta.env.VITE_API_BASE_URL ?? '';

/** Per-endpoint options (RTK Query `extraOptions`). */
export interface RequestOptions {
  /** Translation key for the success toast of a mutation, used only when the server sent no message. */
  successKey?: string;
  /** No toasts at all, success or error (the caller shows the outcome itself or it is background work). */
  quiet?: boolean;
  /** No success toast, but errors still toast (steps of a larger action that says the outcome once). */
  quietSuccess?: boolean;
}

/** What a reply carries besides its data: the server's message, for a screen that says the outcome itself (see server-message.ts). */
export type ApiMeta = FetchBaseQueryMeta & { message?: string };

const rawBaseQuery = fetchBaseQuery({ baseUrl: API_BASE_URL, timeout: REQUEST_TIMEOUT_MS });
const inFlight = createInFlightCounter();

function isEnvelope(body: unknown): body is { success: boolean; message?: unknown; data?: unknown } {
  return !!body && typeof body === 'object' && typeof (body as { success?: unknown }).success === 'boolean';
}

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiFailure, RequestOptions, ApiMeta> = async (
  args,
  api,
  extraOptions,
) => {
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const quiet = extraOptions?.quiet ?? false;

  if (inFlight.start()) api.dispatch(setApiLoading(true));
  try {
    const token = readStored('token');
    const details = storedDeviceDetails();
    const headers = await buildRequestHeaders({
      url: request.url,
      token,
      deviceDetails: readStored('deviceDetails'),
      client: describeClient(navigator.userAgent, details),
      orgId: resolveOrgId(token, import.meta.env.VITE_APP_ORG_ID, APP_ORG_ID),
    });
    const result = await rawBaseQuery(
      { ...request, headers: { ...headers, ...(request.headers as Record<string, string> | undefined) } },
      api,
      extraOptions ?? {},
    );

    let error: FetchBaseQueryError | undefined = result.error;
    const body = result.data;
    // A 2xx answer that says success:false is a failure too.
    if (!error && isEnvelope(body) && !body.success) {
      error = { status: result.meta?.response?.status ?? 400, data: body };
    }
    if (error) {
      const failure = describeFailure(error, translator);
      if (failure.status === HTTP_SESSION_INVALID) {
        toastError(failure.message);
        void endInvalidSession();
      } else if (!quiet) {
        toastError(failure.message);
      }
      return { error: failure, meta: result.meta };
    }

    const envelope = isEnvelope(body) ? (body as OkReply<unknown>) : null;
    if (api.type === 'mutation' && !quiet && !extraOptions?.quietSuccess) {
      const text = successMessage(envelope?.message, extraOptions?.successKey, translator);
      if (text) toastSuccess(text);
    }
    const message = typeof envelope?.message === 'string' && envelope.message.trim() ? envelope.message : undefined;
    return { data: envelope ? envelope.data : body, meta: result.meta && { ...result.meta, message } };
  } finally {
    if (inFlight.finish()) api.dispatch(setApiLoading(false));
  }
};
