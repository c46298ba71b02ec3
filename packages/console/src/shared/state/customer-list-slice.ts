/**
 * The specification's customer list state. Its rows and total are server data and stay in the RTK
 * Query cache, loaded page by page under the filters below (decision 005); this slice keeps what is
 * the screen's own: the filters that name that cache entry and the scroll position to come back to.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CustomerStatusFilter } from '@kisht/domain/customer-status';
import { api } from '../api/api.ts';

export type LockFilter = 'all' | 0 | 1;

export interface CustomerListFilters {
  status: CustomerStatusFilter;
  lockStatus: LockFilter;
  /** The settled (debounced) search text. */
  search: string;
}

export interface CustomerListState {
  filters: CustomerListFilters;
  scrollPosition: number;
}

const initialState: CustomerListState = {
  filters: { status: 'all', lockStatus: 'all', search: '' },
  scrollPosition: 0,
};

export const customerListSlice = createSlice({
  name: 'customerList',
  initialState,
  reducers: {
    setCustomerStatusFilter(state, action: PayloadAction<CustomerStatusFilter>) {
      state.filters.status = action.payload;
      state.scrollPosition = 0;
    },
    setCustomerLockFilter(state, action: PayloadAction<LockFilter>) {
      state.filters.lockStatus = action.payload;
      state.scrollPosition = 0;
    },
    setCustomerSearch(state, action: PayloadAction<string>) {
      if (state.filters.search === action.payload) return;
      state.filters.search = action.payload;
      state.scrollPosition = 0;
    },
    saveCustomerListScroll(state, action: PayloadAction<number>) {
      state.scrollPosition = Math.max(0, Math.round(action.payload));
    },
  },
  // A sign-in drops the cached pages (use-complete-sign-in.ts); the filters and position go with them.
  extraReducers: (builder) => {
    builder.addMatcher(api.util.resetApiState.match, () => initialState);
  },
});

export const { setCustomerStatusFilter, setCustomerLockFilter, setCustomerSearch, saveCustomerListScroll } =
  customerListSlice.actions;
