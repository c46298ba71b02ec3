/** Sign-in: OTP requests and checks, MPIN, logout and the signup request. */
import { Type, type Static } from 'typebox';
import { OTP_PURPOSES, type OtpPurpose as OtpPurposeValue } from '@kisht/domain/constants';

/** An Indian mobile number with its +91 prefix. */
export const Mobile = Type.String({ pattern: '^\\+91[6-9][0-9]{9}$', examples: ['+919876543210'] });
export const OtpCode = Type.String({ pattern: '^[0-9]{6}$' });
export const Mpin = Type.String({ pattern: '^[0-9]{4}$', description: 'Four digits' });
export const RequestId = Type.String({ format: 'uuid' });
export const OtpPurpose = Type.Unsafe<OtpPurposeValue>({ type: 'string', enum: [...OTP_PURPOSES] });

export const LoginWithOtpBody = Type.Object({ mobile: Mobile }, { additionalProperties: false });
export type LoginWithOtpBody = Static<typeof LoginWithOtpBody>;

/** The same answer whether or not the number belongs to an account. */
export const OtpRequested = Type.Object({
  request_id: RequestId,
  expires_in_seconds: Type.Integer(),
  resend_after_seconds: Type.Integer(),
});
export type OtpRequested = Static<typeof OtpRequested>;

export const VerifyOtpBody = Type.Object({ request_id: RequestId, otp: OtpCode }, { additionalProperties: false });
export type VerifyOtpBody = Static<typeof VerifyOtpBody>;

export const UserProfile = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer({ description: 'The retailer account (the top of its own network)' }),
  org_id: Type.Integer(),
  user_type: Type.Union([Type.Literal('retailer'), Type.Literal('miniretailer')]),
  first_name: Type.String(),
  last_name: Type.String(),
  mobile: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  shop_name: Type.Union([Type.String(), Type.Null()]),
  birthday: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  mpin_set: Type.Boolean(),
});
export type UserProfile = Static<typeof UserProfile>;

export const SignedIn = Type.Object({
  token: Type.String({ description: 'JWT bound to a server-side session; send as Bearer' }),
  session_id: Type.String({ format: 'uuid' }),
  user: UserProfile,
});
export type SignedIn = Static<typeof SignedIn>;

export const ResendOtpBody = Type.Object({ request_id: RequestId }, { additionalProperties: false });
export type ResendOtpBody = Static<typeof ResendOtpBody>;

export const ForgotPasswordBody = Type.Object({ mobile: Mobile }, { additionalProperties: false });
export type ForgotPasswordBody = Static<typeof ForgotPasswordBody>;

export const ResetPasswordBody = Type.Object(
  { request_id: RequestId, otp: OtpCode, mpin: Mpin },
  { additionalProperties: false },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

export const SendOtpToUserBody = Type.Object(
  {
    mobile: Mobile,
    purpose: Type.Union([Type.Literal('UNINSTALL'), Type.Literal('BYPASS_CODE')]),
  },
  { additionalProperties: false },
);
export type SendOtpToUserBody = Static<typeof SendOtpToUserBody>;

export const MpinBody = Type.Object({ mpin: Mpin }, { additionalProperties: false });
export type MpinBody = Static<typeof MpinBody>;

export const SignupRequestBody = Type.Object(
  {
    first_name: Type.String({ minLength: 1, maxLength: 60 }),
    last_name: Type.String({ minLength: 1, maxLength: 60 }),
    mobile: Mobile,
    shop_name: Type.String({ minLength: 1, maxLength: 120 }),
    city: Type.String({ minLength: 1, maxLength: 80 }),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 120 })),
  },
  { additionalProperties: false },
);
export type SignupRequestBody = Static<typeof SignupRequestBody>;
