/**
 * The retailer network: the caller's subtree (retailers and mini-retailers below it), adding and editing its
 * members, and the key (license) movements between them.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { IsoDate } from './customers.ts';
import { Id, Page } from './fields.ts';

const Name = Type.String({ minLength: 1, maxLength: 60 });
const Switch = Type.Union([Type.Literal('0'), Type.Literal('1')]);
export const UserAccessBody = Type.Object({
  feature_access: Type.Optional(Switch), lock_unlock: Type.Optional(Switch), unistall: Type.Optional(Switch),
  active_deactive: Type.Optional(Switch), bulk_retailer: Type.Optional(Switch), penalty_waiver: Type.Optional(Switch),
}, { additionalProperties: false });
export const LockAccessBody = Type.Object({
  lock: Type.Optional(Switch), unlock: Type.Optional(Switch), read: Type.Optional(Switch), uninstall: Type.Optional(Switch),
}, { additionalProperties: false });
export const MemberType = Type.Union([Type.Literal('retailer'), Type.Literal('miniretailer')]);
const ProductType = Type.Integer({ minimum: 0, maximum: 1000 });

export const KeyBalance = Type.Object({ product_type: Type.Integer(), balance: Type.Integer() });

/** One member of the caller's subtree, as the retailer list shows it. */
export const NetworkMember = Type.Object({
  id: Type.Integer(),
  user_type: MemberType,
  first_name: Type.String(),
  last_name: Type.String(),
  shop_name: Nullable(Type.String()),
  mobile: Type.String(),
  city: Nullable(Type.String()),
  active: Type.Boolean(),
  /** The member's parent (null for the caller itself). */
  parent_id: Nullable(Type.Integer()),
  /** Levels below the caller: 1 for its own children. */
  depth: Type.Integer(),
  balances: Type.Array(KeyBalance),
  customers: Type.Integer(),
});
export type NetworkMember = Static<typeof NetworkMember>;

export const NetworkQuery = Type.Object({
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  /** The start of a name or shop name, or digits of a mobile number. */
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  user_type: Type.Optional(MemberType),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('blocked')])),
});
export type NetworkQuery = Static<typeof NetworkQuery>;

export const NetworkList = Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), items: Type.Array(NetworkMember) });
export type NetworkList = Static<typeof NetworkList>;

export const AddMemberBody = Type.Object({
  user_type: MemberType,
  first_name: Name,
  last_name: Name,
  shop_name: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
  /** 10 digits or +91 and 10 digits; stored with +91. */
  mobile: Type.String({ pattern: '^(\\+91)?[6-9][0-9]{9}$' }),
  email: Type.Optional(Type.String({ format: 'email', maxLength: 120 })),
  city: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  /** Switches the new member gets; only switches the caller holds may be on. Omitted: the caller's own. */
  user_access: Type.Optional(UserAccessBody),
  lock_access: Type.Optional(LockAccessBody),
}, { additionalProperties: false });
export type AddMemberBody = Static<typeof AddMemberBody>;

export const UpdateMemberBody = Type.Object({
  user_id: Id,
  first_name: Type.Optional(Name),
  last_name: Type.Optional(Name),
  /** null clears it. */
  shop_name: Type.Optional(Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 80 })])),
  /** null clears it (null first: the validator coerces, and a string branch first would make it ''). */
  email: Type.Optional(Type.Union([Type.Null(), Type.String({ format: 'email', maxLength: 120 })])),
  /** null clears it. */
  city: Type.Optional(Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 60 })])),
  user_access: Type.Optional(UserAccessBody),
  lock_access: Type.Optional(LockAccessBody),
  /** false blocks the member and everything below it: their sessions end at their next request. */
  active: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type UpdateMemberBody = Static<typeof UpdateMemberBody>;

export const MEMBER_IMAGE_TYPES = ['photo', 'signature', 'payment_qr'] as const;
export type MemberImageType = (typeof MEMBER_IMAGE_TYPES)[number];

export const MemberProfile = Type.Object({
  ...NetworkMember.properties,
  email: Nullable(Type.String()),
  has_photo: Type.Boolean(),
  has_signature: Type.Boolean(),
  /** The UPI address read from the uploaded payment QR (null until one is uploaded), and the name it carries. */
  upi_id: Nullable(Type.String()),
  upi_name: Nullable(Type.String()),
  user_access: Type.Record(Type.String(), Switch),
  lock_access: Type.Record(Type.String(), Switch),
  /** Whether this is the caller's own profile (its switches and block state are its parent's to change). */
  own: Type.Boolean(),
  /** The member has a parent in the network (a top-level retailer gets its keys from the operator). */
  has_parent: Type.Boolean(),
  children: Type.Integer(),
  pending_requests: Type.Integer(),
});
export type MemberProfile = Static<typeof MemberProfile>;

export const ProfileQuery = Type.Object({ user_id: Type.Optional(Id) });

/** A key movement: `send` to a child of the caller, `request` from or `return` to the caller's parent. */
export const TransferBody = Type.Object({
  /** Chosen by the client: the same id sent again moves keys once and answers with the same transfer. */
  id: Type.String({ format: 'uuid' }),
  kind: Type.Union([Type.Literal('send'), Type.Literal('request'), Type.Literal('return')]),
  /** The child, for `send`. */
  to_user_id: Type.Optional(Id),
  product_type: ProductType,
  quantity: Type.Integer({ minimum: 1, maximum: 100000 }),
  note: Type.Optional(Type.String({ maxLength: 200 })),
}, { additionalProperties: false });
export type TransferBody = Static<typeof TransferBody>;

export const DecideBody = Type.Object({ transfer_id: Type.String({ format: 'uuid' }), decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]) }, { additionalProperties: false });

export const KeyTransfer = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('send'), Type.Literal('request'), Type.Literal('return'), Type.Literal('topup')]),
  state: Type.Union([Type.Literal('done'), Type.Literal('pending'), Type.Literal('rejected')]),
  product_type: Type.Integer(),
  quantity: Type.Integer(),
  from_user_id: Nullable(Type.Integer()),
  to_user_id: Type.Integer(),
  price_paise: Nullable(Type.Integer()),
  note: Nullable(Type.String()),
  created_at: Type.String(),
  decided_at: Nullable(Type.String()),
});
export type KeyTransfer = Static<typeof KeyTransfer>;

export const HistoryQuery = Type.Object({
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  /** The caller or a member of its subtree; the caller when omitted. */
  user_id: Type.Optional(Id),
  product_type: Type.Optional(ProductType),
  from: Type.Optional(IsoDate),
  to: Type.Optional(IsoDate),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

/** One line of a member's key history: a movement of its balance, or a request still open or refused. */
export const HistoryEntry = Type.Object({
  at: Type.String(),
  /** received, sent, requested, returned, consumed (an enrolment), released (an enrolment cancelled), topup, rejected. */
  kind: Type.String(),
  product_type: Type.Integer(),
  /** Keys in (+) or out (-) of this member's balance; 0 for a request that moved nothing yet. */
  change: Type.Integer(),
  balance_after: Nullable(Type.Integer()),
  transfer_id: Nullable(Type.String()),
  state: Nullable(Type.String()),
  counterpart_id: Nullable(Type.Integer()),
  counterpart_name: Nullable(Type.String()),
  customer_id: Nullable(Type.Integer()),
  price_paise: Nullable(Type.Integer()),
  /** An open request the reader may approve or reject (it is the parent asked). */
  can_decide: Type.Boolean(),
});
export type HistoryEntry = Static<typeof HistoryEntry>;
export const HistoryPage = Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), items: Type.Array(HistoryEntry) });
export type HistoryPage = Static<typeof HistoryPage>;

/** GET /api/points/balance_types: each product type of the organisation with the caller's balance, the price per key its parent charges it, and its own price to its children. */
export const BalanceType = Type.Object({
  product_type: Type.Integer(),
  name: Type.String(),
  balance: Type.Integer(),
  /** The parent's price per key for this member (the scheme it buys under); null when none is set or at the top. */
  buy_price_paise: Nullable(Type.Integer()),
  /** The caller's own price per key to its children; null when none is set. */
  sell_price_paise: Nullable(Type.Integer()),
});
export type BalanceType = Static<typeof BalanceType>;

/** POST /api/points/scheme: the caller's price per key to its children for one product type (null clears it). */
export const SchemeBody = Type.Object({
  product_type: ProductType,
  // Null first: the validator coerces, and an integer branch first would turn null into 0.
  price_paise: Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: 100_000_000 })]),
}, { additionalProperties: false });
export type SchemeBody = Static<typeof SchemeBody>;

/** GET /api/user/image: a member's photo, signature or payment QR (one's own without user_id). */
export const MemberImageQuery = Type.Object({
  user_id: Type.Optional(Id),
  image_type: Type.Unsafe<MemberImageType>({ type: 'string', enum: [...MEMBER_IMAGE_TYPES] }),
});
export type MemberImageQuery = Static<typeof MemberImageQuery>;

/** The upload form (multipart/form-data): user_id (left out for one's own) and one JPEG or PNG file. */
export const MemberImageUpload = Type.Object({
  user_id: Type.Optional(Id),
  file: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'A JPEG or PNG image of at most 5 MB' }),
}, { description: 'multipart/form-data: the user_id field (optional), then one file part' });

export const MemberImageStored = Type.Object({
  user_id: Type.Integer(),
  image_type: Type.String(),
  content_type: Type.String(),
  bytes: Type.Integer(),
  /** For a payment QR: the UPI address and name read from it. */
  upi_id: Nullable(Type.String()),
  upi_name: Nullable(Type.String()),
});
export type MemberImageStored = Static<typeof MemberImageStored>;
