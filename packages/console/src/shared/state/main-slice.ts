/** The specification's "main state": UI flags only. Server data stays in the RTK Query cache. */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type MainScreenTab = 'dashboard' | 'customers' | 'help' | 'support';

export interface MainState {
  apiLoading: boolean;
  drawerOpen: boolean;
  mainScreenTab: MainScreenTab;
  birthdayCelebration: boolean;
  splashScreen: boolean;
}

const initialState: MainState = {
  apiLoading: false,
  drawerOpen: false,
  mainScreenTab: 'dashboard',
  birthdayCelebration: false,
  splashScreen: true,
};

export const mainSlice = createSlice({
  name: 'main',
  initialState,
  reducers: {
    setApiLoading(state, action: PayloadAction<boolean>) {
      state.apiLoading = action.payload;
    },
    setDrawerOpen(state, action: PayloadAction<boolean>) {
      state.drawerOpen = action.payload;
    },
    setMainScreenTab(state, action: PayloadAction<MainScreenTab>) {
      state.mainScreenTab = action.payload;
    },
    setBirthdayCelebration(state, action: PayloadAction<boolean>) {
      state.birthdayCelebration = action.payload;
    },
    setSplashScreen(state, action: PayloadAction<boolean>) {
      state.splashScreen = action.payload;
    },
  },
});

export const { setApiLoading, setDrawerOpen, setMainScreenTab, setBirthdayCelebration, setSplashScreen } =
  mainSlice.actions;
