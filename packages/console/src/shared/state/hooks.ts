/** Typed Redux hooks. The store in src/app is built from exactly these reducers. */
import { useDispatch, useSelector } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { MainState } from './main-slice.ts';
import type { SessionState } from './session-slice.ts';
import type { CustomerListState } from './customer-list-slice.ts';
import type { api } from '../api/api.ts';

export interface RootState {
  main: MainState;
  session: SessionState;
  customerList: CustomerListState;
  api: ReturnType<(typeof api)['reducer']>;
}
export type AppDispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
