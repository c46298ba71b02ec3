import { describe, expect, it } from 'vitest';
import { api } from '../api/api.ts';
import {
  customerListSlice,
  saveCustomerListScroll,
  setCustomerLockFilter,
  setCustomerSearch,
  setCustomerStatusFilter,
} from './customer-list-slice.ts';

const reduce = customerListSlice.reducer;

describe('customer list slice', () => {
  it('keeps the scroll position to come back to', () => {
    const state = reduce(undefined, saveCustomerListScroll(812.6));
    expect(state.scrollPosition).toBe(813);
  });

  it('starts from the top when a filter changes', () => {
    let state = reduce(undefined, saveCustomerListScroll(500));
    state = reduce(state, setCustomerStatusFilter('install'));
    expect(state).toMatchObject({ filters: { status: 'install' }, scrollPosition: 0 });
    state = reduce(reduce(state, saveCustomerListScroll(300)), setCustomerLockFilter(1));
    expect(state).toMatchObject({ filters: { lockStatus: 1 }, scrollPosition: 0 });
  });

  it('keeps the position when the same search settles again', () => {
    let state = reduce(undefined, setCustomerSearch('ravi'));
    state = reduce(state, saveCustomerListScroll(200));
    state = reduce(state, setCustomerSearch('ravi'));
    expect(state.scrollPosition).toBe(200);
  });

  it('forgets everything when the cache is reset at sign-in', () => {
    const state = reduce(reduce(undefined, setCustomerSearch('ravi')), api.util.resetApiState());
    expect(state.filters.search).toBe('');
  });
});
