/** Device enrolment: the EMM QR a phone scans and the credentials it receives. See docs/device-protocol.md. */
import { Type, type Static } from 'typebox';

const Imei = Type.String({ pattern: '^[0-9]{15}$' });

export const EmmCodeQuery = Type.Object({ customer_id: Type.Integer({ minimum: 1 }) });

export const EmmCode = Type.Object({
  customer_id: Type.Integer(),
  expires_at: Type.String(),
  /** The Android Enterprise provisioning JSON, the text the QR code encodes. */
  qr_payload: Type.String(),
});
export type EmmCode = Static<typeof EmmCode>;

export const DeviceEnrolBody = Type.Object(
  {
    token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }),
    imei1: Imei,
    imei2: Type.Optional(Imei),
    serial_number: Type.Optional(Type.String({ maxLength: 40 })),
    sims: Type.Optional(Type.Array(Type.Object({ slot: Type.Integer({ minimum: 0, maximum: 3 }), operator: Type.Optional(Type.String({ maxLength: 40 })), iccid: Type.Optional(Type.String({ maxLength: 22 })) }), { maxItems: 4 })),
  },
  { additionalProperties: false },
);
export type DeviceEnrolBody = Static<typeof DeviceEnrolBody>;

export const DeviceEnrolled = Type.Object({
  device_id: Type.String({ format: 'uuid' }),
  mqtt: Type.Object({ username: Type.String(), password: Type.String(), command_topic: Type.String(), event_topic: Type.String() }),
  offline_secret: Type.String({ description: 'Base64url secret for offline codes (HOTP/TOTP); shown once' }),
  check_in_seconds: Type.Integer(),
});
export type DeviceEnrolled = Static<typeof DeviceEnrolled>;

export const CommandBody = Type.Object({ customer_id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
export type CommandBody = Static<typeof CommandBody>;

export const DeviceCommand = Type.Object({
  id: Type.String({ format: 'uuid' }),
  seq: Type.Integer(),
  type: Type.String(),
  state: Type.String(),
  result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  created_at: Type.String(),
  sent_at: Type.Union([Type.String(), Type.Null()]),
  delivered_at: Type.Union([Type.String(), Type.Null()]),
  finished_at: Type.Union([Type.String(), Type.Null()]),
});
export type DeviceCommand = Static<typeof DeviceCommand>;
