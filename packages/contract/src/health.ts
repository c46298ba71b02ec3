import { Type, type Static } from 'typebox';

/**
 * GET /api/health. Everyone sees whether the node, its database and its broker are up; versions,
 * addresses, latency and uptime are for the operator only (from this machine, with the operator key).
 */
export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Object({
    ok: Type.Boolean(),
    driver: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
    latency_ms: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    address: Type.Optional(Type.String()),
    server_version: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
  broker: Type.Object({
    ok: Type.Boolean(),
    mode: Type.Union([Type.Literal('embedded'), Type.Literal('external')]),
    url: Type.Optional(Type.String()),
  }),
  version: Type.Optional(Type.String()),
  node_version: Type.Optional(Type.String()),
  uptime_seconds: Type.Optional(Type.Number()),
});
export type Health = Static<typeof Health>;
