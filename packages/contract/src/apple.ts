/** Apple phones: the MDM enrolment QR, Apple Business Manager (DEP) devices and the Apple details screen. */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { Id } from './fields.ts';

const CustomerId = Id;

export const AppleCustomerQuery = Type.Object({ customer_id: CustomerId });
export const AppleCustomerBody = Type.Object({ customer_id: CustomerId }, { additionalProperties: false });
export type AppleCustomerBody = Static<typeof AppleCustomerBody>;

export const AppleQr = Type.Object({
  customer_id: Type.Integer(),
  expires_at: Type.String(),
  /** The enrolment profile URL (single-use); the QR code encodes it and the phone's camera opens it. */
  enrol_url: Type.String(),
  qr_payload: Type.String(),
});
export type AppleQr = Static<typeof AppleQr>;

export const AppleDepDevice = Type.Object({
  serial_number: Type.String(),
  model: Nullable(Type.String()),
  description: Nullable(Type.String()),
  color: Nullable(Type.String()),
  os: Nullable(Type.String()),
  device_family: Nullable(Type.String()),
  profile_status: Nullable(Type.String()),
  op_type: Nullable(Type.String()),
  op_date: Nullable(Type.String()),
  device_assigned_date: Nullable(Type.String()),
  customer_id: Nullable(Type.Integer()),
  /** An unlinked device whose serial number is one of this network's customers'. */
  suggested_customer_id: Nullable(Type.Integer()),
  linked_at: Nullable(Type.String()),
  synced_at: Type.String(),
});
export type AppleDepDevice = Static<typeof AppleDepDevice>;

export const AppleSyncResult = Type.Object({
  /** Devices Apple reported in this run (for the whole deployment, not only this network). */
  fetched: Type.Integer(),
  devices: Type.Array(AppleDepDevice),
});
export type AppleSyncResult = Static<typeof AppleSyncResult>;

export const AppleUpdateBody = Type.Object(
  {
    serial_number: Type.String({ pattern: '^[A-Za-z0-9]{8,20}$' }),
    /** The customer the phone belongs to; null releases the link. */
    customer_id: Nullable(CustomerId),
  },
  { additionalProperties: false },
);
export type AppleUpdateBody = Static<typeof AppleUpdateBody>;

export const AppleMdmCommand = Type.Object({
  id: Type.String(),
  /** Our command type, or the MDM request type of the provider's own commands. */
  type: Type.String(),
  state: Type.String(),
  created_at: Type.String(),
});

export const AppleDetails = Type.Object({
  customer_id: Type.Integer(),
  device: Nullable(Type.Object({
    id: Type.String(),
    udid: Nullable(Type.String()),
    serial_number: Nullable(Type.String()),
    model: Nullable(Type.String()),
    os_version: Nullable(Type.String()),
    enrolled_at: Type.String(),
    /** The phone finished enrolment (gave us its push token). */
    push_ready: Type.Boolean(),
    last_mdm_contact_at: Nullable(Type.String()),
    last_status: Nullable(Type.String()),
    activation_lock_code: Type.Boolean({ description: 'Whether the Activation Lock bypass code is on file' }),
  })),
  /** The Apple Business Manager record, when one is linked. */
  dep: Nullable(AppleDepDevice),
  profile_status: Nullable(Type.String()),
  queued: Type.Array(AppleMdmCommand),
});
export type AppleDetails = Static<typeof AppleDetails>;
