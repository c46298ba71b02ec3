/** The audit log as the console reads it: one page of a network's activity, newest first. */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { IsoDate } from './customers.ts';
import { Id, Page } from './fields.ts';

/** An action name: `device.lock`, `auth.sign_in`, `emi.pay`... */
export const AuditAction = Type.String({ pattern: '^[a-z][a-z0-9_.]{0,79}$' });

export const AuditQuery = Type.Object({
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  /** One action (`device.lock`), or a group when it ends with a dot (`device.`). */
  action: Type.Optional(AuditAction),
  /** India dates, both included. */
  from: Type.Optional(IsoDate),
  to: Type.Optional(IsoDate),
  /** Only this member's own entries: yourself, or a member below you in the network (a retailer's profile shows them). */
  user_id: Type.Optional(Id),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ description: 'ISO time' }),
  actor: Type.Union([Type.Literal('user'), Type.Literal('system'), Type.Literal('operator'), Type.Literal('anonymous')]),
  action: Type.String(),
  /** The HTTP status the caller got; null for work done without a request (schedules, dues policies). */
  status: Nullable(Type.Integer()),
  error_code: Nullable(Type.String()),
  user_id: Nullable(Type.Integer()),
  user_name: Nullable(Type.String()),
  customer_id: Nullable(Type.Integer()),
  customer_name: Nullable(Type.String()),
  targets: Type.Record(Type.String(), Type.Unknown()),
  ip: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  device: Nullable(Type.String({ description: 'The phone or browser the console said it ran on' })),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditList = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  items: Type.Array(AuditEntry),
});
export type AuditList = Static<typeof AuditList>;
