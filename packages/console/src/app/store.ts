/** The Redux store: the UI slices and the one RTK Query cache. */
import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '../shared/api/api.ts';
import { mainSlice } from '../shared/state/main-slice.ts';
import { sessionSlice } from '../shared/state/session-slice.ts';
import { customerListSlice } from '../shared/state/customer-list-slice.ts';
import type { RootState } from '../shared/state/hooks.ts';

export function createAppStore() {
  const store = configureStore({
    reducer: {
      main: mainSlice.reducer,
      session: sessionSlice.reducer,
      customerList: customerListSlice.reducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  // Lets refetchOnReconnect work: weak networks drop and come back.
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;

// The shared hooks are typed from RootState; this fails to compile if the store drifts from it.
export type StoreMatchesRootState = ReturnType<AppStore['getState']> extends RootState ? true : never;
const storeMatches: StoreMatchesRootState = true;
void storeMatches;
