import { Type, type Static } from 'typebox';

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  uptime_seconds: Type.Number(),
  database: Type.Object({ ok: Type.Boolean(), driver: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]), latency_ms: Type.Union([Type.Number(), Type.Null()]) }),
  broker: Type.Object({ ok: Type.Boolean(), mode: Type.Union([Type.Literal('embedded'), Type.Literal('external')]), url: Type.String() }),
});
export type Health = Static<typeof Health>;
