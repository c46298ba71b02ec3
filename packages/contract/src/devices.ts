/** Device enrolment: the EMM QR a phone scans and the credentials it receives. See docs/device-protocol.md. */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { Id, INT4_MAX, MultilineText, Page } from './fields.ts';
import { RECENT_OUTCOMES } from '@kisht/protocol/messages';

const Imei = Type.String({ pattern: '^[0-9]{15}$' });

export const EmmCodeQuery = Type.Object({ customer_id: Id });

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
  mqtt: Type.Object({ url: Type.String(), username: Type.String(), password: Type.String(), command_topic: Type.String(), event_topic: Type.String() }),
  offline_secret: Type.String({ description: 'Base64url secret for offline codes (HOTP/TOTP); shown once' }),
  check_in_seconds: Type.Integer(),
});
export type DeviceEnrolled = Static<typeof DeviceEnrolled>;

const CustomerId = Id;

export const CommandBody = Type.Object({ customer_id: CustomerId }, { additionalProperties: false });
export type CommandBody = Static<typeof CommandBody>;

export const LockBody = Type.Object({ customer_id: CustomerId, message: Type.Optional(MultilineText({ maxLength: 200 })) }, { additionalProperties: false });
export type LockBody = Static<typeof LockBody>;

/** Switch a restriction or feature on (true) or off (false). */
export const ToggleBody = Type.Object({ customer_id: CustomerId, on: Type.Boolean() }, { additionalProperties: false });
export type ToggleBody = Static<typeof ToggleBody>;

export const LostModeBody = Type.Object(
  { customer_id: CustomerId, on: Type.Boolean(), message: Type.Optional(MultilineText({ maxLength: 200 })), phone: Type.Optional(Type.String({ pattern: '^\\+?[0-9]{10,13}$' })) },
  { additionalProperties: false },
);
export type LostModeBody = Static<typeof LostModeBody>;

export const SimTrackingBody = Type.Object(
  { customer_id: CustomerId, command: Type.Union([Type.Literal('SIMTRACKINGON'), Type.Literal('SIMTRACKINGOFF'), Type.Literal('SIMTRACKINGOFFLINEON'), Type.Literal('SIMTRACKINGOFFLINEOFF')]) },
  { additionalProperties: false },
);
export type SimTrackingBody = Static<typeof SimTrackingBody>;

export const WallpaperBody = Type.Object(
  { customer_id: CustomerId, text: MultilineText({ minLength: 1, maxLength: 200 }), policy: Type.Union([Type.Literal('alert'), Type.Literal('wallpaper')]) },
  { additionalProperties: false },
);
export type WallpaperBody = Static<typeof WallpaperBody>;

export const EmiAlertBody = Type.Object({ customer_id: CustomerId, message: Type.Optional(MultilineText({ minLength: 1, maxLength: 300 })) }, { additionalProperties: false });
export type EmiAlertBody = Static<typeof EmiAlertBody>;

/** Uninstall needs the customer's UNINSTALL OTP and where the retailer stood ("Bypassed" when unknown). */
const Coordinate = Type.Union([Type.String({ pattern: '^-?[0-9]{1,3}(\\.[0-9]{1,10})?$' }), Type.Literal('Bypassed')]);
export const UninstallBody = Type.Object(
  { customer_id: CustomerId, request_id: Type.String({ format: 'uuid' }), otp: Type.String({ pattern: '^[0-9]{6}$' }), latitude: Coordinate, longitude: Coordinate },
  { additionalProperties: false },
);
export type UninstallBody = Static<typeof UninstallBody>;

export const PinChangeBody = Type.Object({ customer_id: CustomerId, pin: Type.String({ pattern: '^[0-9]{4,8}$' }) }, { additionalProperties: false });
export type PinChangeBody = Static<typeof PinChangeBody>;

export const ScheduleBody = Type.Object(
  { customer_id: CustomerId, action: Type.Union([Type.Literal('lock'), Type.Literal('unlock')]), run_at: Type.String({ format: 'date-time' }), note: Type.Optional(MultilineText({ maxLength: 200 })) },
  { additionalProperties: false },
);
export type ScheduleBody = Static<typeof ScheduleBody>;

export const Schedule = Type.Object({
  id: Type.Integer(), customer_id: Type.Integer(), action: Type.String(), run_at: Type.String(), state: Type.String(),
  command_id: Nullable(Type.String()), note: Nullable(Type.String()), created_at: Type.String(),
});
export type Schedule = Static<typeof Schedule>;

export const ScheduleCancelBody = Type.Object({ schedule_id: Id }, { additionalProperties: false });

/** Multiple lock/unlock: by hand (customer_ids) or by the customer list's filter. */
export const BatchBody = Type.Object(
  {
    action: Type.Union([Type.Literal('lock'), Type.Literal('unlock')]),
    customer_ids: Type.Optional(Type.Array(CustomerId, { minItems: 1, maxItems: 20000, uniqueItems: true })),
    filter: Type.Optional(Type.Object({ search: Type.Optional(Type.String({ maxLength: 60 })), status: Type.Optional(Type.String({ maxLength: 20 })) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type BatchBody = Static<typeof BatchBody>;

export const BatchItem = Type.Object({
  /** command_id null: skipped, or (state queued) not written yet; a big batch's commands are written after the POST answers. */
  customer_id: Type.Integer(), name: Type.String(), command_id: Nullable(Type.String()), state: Type.String(),
  /** Why no command was made (ACTION_NOT_ALLOWED, DEVICE_NOT_ENROLLED), or the phone's error. */
  reason: Nullable(Type.String()),
});
export const Batch = Type.Object({
  id: Type.String(), action: Type.String(), created_at: Type.String(), total: Type.Integer(),
  counts: Type.Object({ queued: Type.Integer(), sent: Type.Integer(), delivered: Type.Integer(), done: Type.Integer(), failed: Type.Integer(), expired: Type.Integer(), skipped: Type.Integer() }),
  items: Type.Array(BatchItem),
});
export type Batch = Static<typeof Batch>;
export const BatchQuery = Type.Object({ batch_id: Type.String({ format: 'uuid' }) });

export const OfflineCodeBody = Type.Object({ customer_id: CustomerId, action: Type.Union([Type.Literal('lock'), Type.Literal('unlock')]) }, { additionalProperties: false });
export const OfflineCode = Type.Object({ customer_id: Type.Integer(), purpose: Type.String(), code: Type.String(), valid_until: Nullable(Type.String()) });
export type OfflineCode = Static<typeof OfflineCode>;
export const BypassCodeBody = Type.Object(
  { customer_id: CustomerId, request_id: Type.String({ format: 'uuid' }), otp: Type.String({ pattern: '^[0-9]{6}$' }) },
  { additionalProperties: false },
);
export type BypassCodeBody = Static<typeof BypassCodeBody>;

export const OfflineLogItem = Type.Object({ n: Type.Integer(), kind: Type.String(), ref: Nullable(Type.String()), happened_at: Type.String(), received_at: Type.String() });

const SimSchema = Type.Object({ slot: Type.Integer({ minimum: 0, maximum: 3 }), operator: Type.Optional(Type.String({ maxLength: 40 })), iccid: Type.Optional(Type.String({ maxLength: 22 })), number: Type.Optional(Type.String({ maxLength: 16 })) });
const LocationSchema = Type.Object({ latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }), accuracy: Type.Number({ minimum: 0 }), at: Type.String() });

export const SimChange = Type.Object({
  id: Type.Integer(), customer_id: Type.Integer(), customer_name: Type.String(), mobile: Type.String(), imei1: Type.String(),
  old_sims: Type.Array(SimSchema), new_sims: Type.Array(SimSchema), location: Nullable(LocationSchema), changed_at: Type.String(),
  /** Who was sent an alert of this change (anti-theft phones: the owner's alternate number and the retailer). */
  alerted_to: Type.Array(Type.String()),
  /** The change turned lost mode on (the owner of an anti-theft phone asked for it). */
  lost_mode_on: Type.Boolean(),
});
export type SimChange = Static<typeof SimChange>;
export const SimChangeQuery = Type.Object({ customer_id: Type.Optional(CustomerId), page: Page, limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) });
export const SimChangeList = Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), items: Type.Array(SimChange) });

export const DeepLink = Type.Object({ customer_id: Type.Integer(), link: Type.String(), expires_at: Type.String() });
export type DeepLink = Static<typeof DeepLink>;

/**
 * What a phone reports a command did: a location, its SIMs, an error (which may span lines: a stack trace,
 * an Android message), or a few flat values. Bounded, so 32 outcomes in a check-in stay small.
 */
const CommandResultSchema = Type.Object({
  location: Type.Optional(LocationSchema),
  sims: Type.Optional(Type.Array(SimSchema, { maxItems: 4 })),
  error: Type.Optional(MultilineText({ maxLength: 2000 })),
}, {
  // Numbers and booleans first: the validator coerces, and a string branch first would turn 7 into '7'.
  additionalProperties: Type.Union([Type.Number(), Type.Boolean(), Type.Null(), MultilineText({ maxLength: 500 })]),
  maxProperties: 16,
});

/** Device side: the check-in body and answer (docs/device-protocol.md). */
export const CheckInBody = Type.Object({
  v: Type.Literal(1), locked: Type.Boolean(), battery: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })), sims: Type.Optional(Type.Array(SimSchema, { maxItems: 4 })),
  app_version: Type.Optional(Type.String({ maxLength: 40 })), location: Type.Optional(Nullable(LocationSchema)), last_seq: Type.Integer({ minimum: 0, maximum: INT4_MAX }),
  log: Type.Optional(Type.Array(Type.Object({
    n: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), at: Type.String({ format: 'date-time' }),
    kind: Type.Union([
      Type.Literal('code_unlock'), Type.Literal('code_lock'), Type.Literal('code_bypass'), Type.Literal('code_ouc'), Type.Literal('code_rejected'),
      Type.Literal('self_lock'), Type.Literal('offline_warning'), Type.Literal('command'),
    ]),
    ref: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER })])),
  }), { maxItems: 500 })),
  recent: Type.Optional(Type.Array(Type.Object({
    id: Type.String({ format: 'uuid' }), seq: Type.Integer({ minimum: 1, maximum: INT4_MAX }),
    state: Type.Union([Type.Literal('done'), Type.Literal('failed')]),
    result: Type.Optional(CommandResultSchema),
  }), { maxItems: RECENT_OUTCOMES })),
  self_locked: Type.Optional(Type.Boolean()),
  offers_opt_out: Type.Optional(Type.Boolean()),
  push_token: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 4096 }))),
});
export const OfflineLogBody = Type.Object({ log: Type.Index(CheckInBody, ['log']) });
export const CheckInReply = Type.Object({
  desired: Type.Object({ locked: Type.Boolean(), lock_screen: Nullable(Type.Record(Type.String(), Type.Unknown())) }),
  commands: Type.Array(Type.String()), next_check_in_seconds: Type.Integer(), offline_lock_days: Type.Integer(), org_name: Type.String(), server_time: Type.String(), want_location: Type.Boolean(),
});

export const DeviceCommand = Type.Object({
  id: Type.String({ format: 'uuid' }),
  seq: Type.Integer(),
  type: Type.String(),
  state: Type.String(),
  result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  payload: Type.Record(Type.String(), Type.Unknown()),
  origin: Type.String(),
  created_at: Type.String(),
  sent_at: Type.Union([Type.String(), Type.Null()]),
  delivered_at: Type.Union([Type.String(), Type.Null()]),
  finished_at: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.String(),
});
export type DeviceCommand = Static<typeof DeviceCommand>;

/** What the phone last reported (check-in, confirmed commands); every field may be missing. */
export const Reported = Type.Object({
  locked: Type.Optional(Type.Boolean()),
  battery: Type.Optional(Type.Integer()),
  app_version: Type.Optional(Type.String()),
  sims: Type.Optional(Type.Array(SimSchema)),
  location: Type.Optional(LocationSchema),
  toggles: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
  sim_tracking_online: Type.Optional(Type.Boolean()),
  sim_tracking_offline: Type.Optional(Type.Boolean()),
});

/** The device panel of customer details: the phone, what it reported, what may be done, recent commands. */
export const DevicePanel = Type.Object({
  device: Nullable(Type.Object({
    id: Type.String(), imei1: Type.String(), imei2: Nullable(Type.String()), serial_number: Nullable(Type.String()), channel: Type.String(),
    enrolled_at: Type.String(), last_check_in_at: Nullable(Type.String()),
    reported: Reported,
  })),
  lock_status: Type.Integer(),
  actions: Type.Object({ main: Type.Array(Type.String()), info: Type.Array(Type.String()) }),
  commands: Type.Array(DeviceCommand),
});
export type DevicePanel = Static<typeof DevicePanel>;
