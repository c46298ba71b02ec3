/** Sign-in endpoints: OTP, MPIN, password (MPIN) reset and the account request. */
import type {
  ForgotPasswordBody,
  LoginWithOtpBody,
  MpinBody,
  OtpRequested,
  ResendOtpBody,
  ResetPasswordBody,
  SignedIn,
  SignupRequestBody,
  VerifyOtpBody,
} from '@kisht/contract/auth';
import { api } from '../../../shared/api/api.ts';

const post = <T>(url: string) => (body: T) => ({ url, method: 'POST', body });

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginWithOtp: build.mutation<OtpRequested, LoginWithOtpBody>({
      query: post('/api/auth/loginWithOtp'),
      extraOptions: { successKey: 'auth.toast.otpSent' },
    }),
    verifyOtpAuth: build.mutation<SignedIn, VerifyOtpBody>({
      query: post('/api/auth/verifyOtpAuth'),
      extraOptions: { successKey: 'auth.toast.signedIn' },
    }),
    resendOtp: build.mutation<OtpRequested, ResendOtpBody>({
      query: post('/api/auth/resend-otp'),
      extraOptions: { successKey: 'auth.toast.otpResent' },
    }),
    forgotPassword: build.mutation<OtpRequested, ForgotPasswordBody>({
      query: post('/api/auth/forgot-password'),
      extraOptions: { successKey: 'auth.toast.otpSent' },
    }),
    resetPassword: build.mutation<unknown, ResetPasswordBody>({
      query: post('/api/auth/reset-password'),
      extraOptions: { successKey: 'auth.toast.mpinReset' },
    }),
    setMpin: build.mutation<unknown, MpinBody>({
      query: post('/api/auth/set-mpin'),
      invalidatesTags: ['Profile'],
      extraOptions: { successKey: 'auth.toast.mpinSet' },
    }),
    verifyMpin: build.mutation<unknown, MpinBody>({
      query: post('/api/auth/verify-mpin'),
      extraOptions: { successKey: 'auth.toast.mpinVerified' },
    }),
    signupRequest: build.mutation<unknown, SignupRequestBody>({
      query: post('/api/user/signup_request'),
      extraOptions: { successKey: 'auth.toast.signupRequested' },
    }),
  }),
});

export const {
  useLoginWithOtpMutation,
  useVerifyOtpAuthMutation,
  useResendOtpMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useSetMpinMutation,
  useVerifyMpinMutation,
  useSignupRequestMutation,
} = authApi;
