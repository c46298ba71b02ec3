/** Whether the MPIN (or an OTP sign-in) has unlocked the console during this page load. Never persisted. */
import { createSlice } from '@reduxjs/toolkit';

export interface SessionState {
  unlocked: boolean;
}

const initialState: SessionState = { unlocked: false };

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    sessionUnlocked(state) {
      state.unlocked = true;
    },
    sessionLocked(state) {
      state.unlocked = false;
    },
  },
});

export const { sessionUnlocked, sessionLocked } = sessionSlice.actions;
