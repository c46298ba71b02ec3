/** The retailer's own sessions. */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';


export const SessionItem = Type.Object({
  id: Type.String({ format: 'uuid' }),
  current: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  last_seen_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  ip: Nullable(Type.String()),
  auth_platform: Nullable(Type.String()),
  device_details: Nullable(Type.String()),
  browser_name: Nullable(Type.String()),
  browser_version: Nullable(Type.String()),
  device_type: Nullable(Type.String()),
  device_platform: Nullable(Type.String()),
});
export type SessionItem = Static<typeof SessionItem>;

export const MySessions = Type.Array(SessionItem);
export type MySessions = Static<typeof MySessions>;

export const LogoutMySessionBody = Type.Union([
  Type.Object({ session_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
  Type.Object({ all_others: Type.Literal(true) }, { additionalProperties: false }),
]);
export type LogoutMySessionBody = Static<typeof LogoutMySessionBody>;

export const SessionsEnded = Type.Object({ ended: Type.Integer() });
export type SessionsEnded = Static<typeof SessionsEnded>;
