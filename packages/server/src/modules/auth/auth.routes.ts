/** /api/auth/*: sign-in with OTP, MPIN, resend, forgot and reset, customer OTPs, logout; /api/user/signup_request. */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { Empty, ErrorReply, Ok } from '@kisht/contract/envelope';
import {
  ForgotPasswordBody, LoginWithOtpBody, MpinBody, OtpRequested, ResendOtpBody, ResetPasswordBody,
  SendOtpToUserBody, SignedIn, SignupRequestBody, UserProfile, VerifyOtpBody,
} from '@kisht/contract/auth';
import { ok } from '../../shared/reply.ts';
import { languageOf } from '../../shared/messages.ts';
import { clientDetailsOf } from '../../shared/client-details.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import { assertAccess } from '../../plugins/access.ts';
import { accessFor } from '@kisht/domain/device-access';
import type { AuthService } from './auth.service.ts';
import type { SignupsService } from '../users/signups.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 429: ErrorReply, 511: ErrorReply };

/** A customer OTP starts an uninstall or an unlock (bypass code), so it needs the switches of that action. */
const CUSTOMER_OTP_ACTION = { UNINSTALL: 'uninstall', BYPASS_CODE: 'unlock' } as const;
const tags = ['auth'];

export async function authRoutes(app: App, opts: { auth: AuthService; signups: SignupsService }) {
  const { auth } = opts;
  const publicRoute = { public: true, callers: ['public'], scope: 'none' } as const;

  app.post('/api/auth/loginWithOtp', {
    config: { ...publicRoute, audit: 'auth.otp_request' },
    schema: { tags, summary: 'Send a sign-in OTP to a mobile number', body: LoginWithOtpBody, response: { 200: Ok(OtpRequested), ...errors } },
  }, async (request) => ok(request, await auth.requestLoginOtp(request.body.mobile, request.ip, languageOf(request.headers.cookie)), 'OTP_SENT'));

  app.post('/api/auth/verifyOtpAuth', {
    config: { ...publicRoute, audit: 'auth.sign_in' },
    schema: { tags, summary: 'Check a sign-in OTP and open a session', body: VerifyOtpBody, response: { 200: Ok(SignedIn), ...errors } },
  }, async (request) => ok(request, await auth.verifyLogin(request.body.request_id, request.body.otp, clientDetailsOf(request)), 'SIGNED_IN'));

  app.post('/api/auth/resend-otp', {
    config: { ...publicRoute, audit: 'auth.otp_resend' },
    schema: { tags, summary: 'Send a new code for an OTP request (throttled)', body: ResendOtpBody, response: { 200: Ok(OtpRequested), ...errors } },
  }, async (request) => ok(request, await auth.resend(request.body.request_id, request.ip, request.auth?.userId ?? null, languageOf(request.headers.cookie)), 'OTP_SENT'));

  app.post('/api/auth/forgot-password', {
    config: { ...publicRoute, audit: 'auth.forgot_mpin' },
    schema: { tags, summary: 'Send a FORGOT_PASSWORD OTP to reset the MPIN', body: ForgotPasswordBody, response: { 200: Ok(OtpRequested), ...errors } },
  }, async (request) => ok(request, await auth.requestForgotOtp(request.body.mobile, request.ip, languageOf(request.headers.cookie)), 'OTP_SENT'));

  app.post('/api/auth/reset-password', {
    config: { ...publicRoute, audit: 'auth.reset_mpin' },
    schema: { tags, summary: 'Set a new MPIN with a FORGOT_PASSWORD OTP', body: ResetPasswordBody, response: { 200: Ok(Empty), ...errors } },
  }, async (request) => {
    await auth.resetMpin(request.body.request_id, request.body.otp, request.body.mpin);
    return ok(request, {}, 'MPIN_RESET');
  });

  app.post('/api/auth/send-otp-to-user', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'auth.customer_otp' },
    schema: { tags, summary: "Send an UNINSTALL or BYPASS_CODE OTP to a customer's phone", security: [{ bearer: [] }], body: SendOtpToUserBody, response: { 200: Ok(OtpRequested), ...errors } },
  }, async (request) => {
    const caller = authOf(request);
    assertAccess(caller, accessFor(CUSTOMER_OTP_ACTION[request.body.purpose]));
    return ok(request, await auth.requestCustomerOtp(request.body.purpose, request.body.mobile, request.ip, caller.userId, languageOf(request.headers.cookie)), 'OTP_SENT');
  });

  app.post('/api/auth/set-mpin', {
    config: { callers: SIGNED_IN, scope: 'own', audit: 'auth.set_mpin' },
    schema: { tags, summary: 'Set the MPIN after the first OTP sign-in', security: [{ bearer: [] }], body: MpinBody, response: { 200: Ok(Empty), ...errors } },
  }, async (request) => {
    await auth.setMpin(authOf(request).userId, request.body.mpin);
    return ok(request, {}, 'MPIN_SET');
  });

  app.post('/api/auth/verify-mpin', {
    config: { callers: SIGNED_IN, scope: 'own', audit: 'auth.verify_mpin' },
    schema: { tags, summary: 'Check the MPIN (quick re-entry); five wrong tries end every session', security: [{ bearer: [] }], body: MpinBody, response: { 200: Ok(Empty), ...errors } },
  }, async (request) => {
    await auth.verifyMpin(authOf(request).userId, request.body.mpin);
    return ok(request, {}, 'MPIN_VERIFIED');
  });

  app.post('/api/auth/logout', {
    config: { callers: SIGNED_IN, scope: 'own', audit: 'auth.logout' },
    schema: { tags, summary: 'End the current session', security: [{ bearer: [] }], response: { 200: Ok(Empty), ...errors } },
  }, async (request) => {
    const caller = authOf(request);
    await auth.logout(caller.userId, caller.sessionId);
    return ok(request, {}, 'LOGGED_OUT');
  });

  app.get('/api/user/get-details', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags: ['user'], summary: "The signed-in retailer's profile", security: [{ bearer: [] }], response: { 200: Ok(UserProfile), ...errors } },
  }, async (request) => ok(request, await auth.profile(authOf(request).userId)));

  app.post('/api/user/signup_request', {
    config: publicRoute,
    schema: { tags: ['user'], summary: 'Ask for a retailer account; an operator approves it (same answer for a repeated request)', body: SignupRequestBody, response: { 200: Ok(Type.Object({})), ...errors } },
  }, async (request) => {
    await opts.signups.request(request.body, request.ip);
    return ok(request, {}, 'SIGNUP_REQUESTED');
  });
}
