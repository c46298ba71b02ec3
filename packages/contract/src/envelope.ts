/** The response envelope every API route answers with, and the stable error codes. */
import { Type, type Static, type TSchema } from 'typebox';

export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'INVALID_MOBILE',
  'OTP_INVALID',
  'OTP_EXPIRED',
  'OTP_ATTEMPTS_EXCEEDED',
  'OTP_RESEND_TOO_SOON',
  'OTP_RESEND_LIMIT',
  'RATE_LIMITED',
  'SESSION_INVALID',
  'MPIN_NOT_SET',
  'MPIN_ALREADY_SET',
  'MPIN_INVALID',
  'MPIN_LOCKED',
  'MPIN_WEAK',
  'EMM_AUTH_MISSING',
  'EMM_AUTH_INVALID',
  'EMM_AUTH_REPLAYED',
  'ACCESS_DENIED',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'NO_LICENSE_KEY',
  'IMEI_IN_USE',
  'NOTHING_DUE',
  'PAYMENT_TOO_LARGE',
  'ALREADY_REVERSED',
  'QUOTE_CHANGED',
  'FORECLOSURE_FINAL',
  'CAMPAIGN_FINISHED',
  'FEATURE_OFF',
  'UNSUPPORTED_FILE',
  'IMAGE_INVALID',
  'IMAGE_TOO_LARGE',
  'ENROLMENT_INVALID',
  'ACTION_NOT_ALLOWED',
  'DEVICE_NOT_ENROLLED',
  'DEVICE_CREDENTIALS_INVALID',
  'LOAN_OPEN',
  'WRONG_ENROLMENT_CHANNEL',
  'ENROLMENT_CLOSED',
  'VENDOR_FAILED',
  'ACTIVATION_LOCK_NO_CODE',
  'AMAPI_NOT_LINKED',
  'MOBILE_TAKEN',
  'NOT_ENOUGH_KEYS',
  'ACCESS_NOT_HELD',
  'TRANSFER_ID_REUSED',
  'QR_NOT_UPI',
  'ENROLMENT_STARTED',
  'PRICE_UNAVAILABLE',
  'GATEWAY_NOT_CONFIGURED',
  'SIGNATURE_INVALID',
  'CLAIM_DECIDED',
  'ORDER_KEY_REUSED',
  'ORDER_NOT_HELD',
  'PLAN_NOT_AVAILABLE',
  'ACTIVATION_CODE_INVALID',
  'ACTIVATION_CODE_UNKNOWN',
  'ACTIVATION_CODE_USED',
  'ACTIVATION_CODE_EXPIRED',
  'ACTIVATION_CODE_REVOKED',
  'WARRANTY_PURCHASE_WINDOW_CLOSED',
  'WARRANTY_NOT_IN_COVER',
  'WARRANTY_IMEI_MISMATCH',
  'WARRANTY_NOT_COVERED',
  'WARRANTY_CLAIM_LIMIT',
  'WARRANTY_CLAIM_STATE',
  'WARRANTY_PHOTO_LIMIT',
  'NOT_ANTITHEFT',
  'NO_LOAN',
  'NOT_FAMILYCARE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorReply = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.Unsafe<ErrorCode>({ type: 'string', enum: [...ERROR_CODES] }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String(), rule: Type.Optional(Type.String()) }))),
    retry_after_seconds: Type.Optional(Type.Integer()),
    attempts_left: Type.Optional(Type.Integer()),
  },
  { $id: 'ErrorReply' },
);
export type ErrorReply = Static<typeof ErrorReply>;

/** `{ success: true, message, data }`: the console toasts `message` and reads `data`. */
export function Ok<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), message: Type.String(), data });
}
export type OkReply<T> = { success: true; message: string; data: T };

export const Empty = Type.Object({});

/** A value or null. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
