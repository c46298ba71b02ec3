/**
 * GET /api/events: a Server-Sent Events stream per session. Each `data:` line is one StreamEvent naming what
 * changed by ids only; the console reads those answers again through the API (docs/decisions/009).
 */
import { Type, type Static } from 'typebox';

const CustomerIds = Type.Array(Type.Integer({ minimum: 1 }), { description: 'customers the session may see; never others' });

export const StreamEvent = Type.Union([
  Type.Object({ type: Type.Literal('customer'), customer_ids: CustomerIds }, { description: 'profile, status or list row changed (enrolment, edit, lock state)' }),
  Type.Object({ type: Type.Literal('device_command'), customer_ids: CustomerIds }, { description: "a command's state or the phone's report changed (device panel)" }),
  Type.Object({ type: Type.Literal('schedule'), customer_ids: CustomerIds }, { description: 'a scheduled lock or unlock fired or was skipped' }),
  Type.Object({ type: Type.Literal('emi'), customer_ids: CustomerIds }, { description: 'payments, reversals or the instalment schedule changed' }),
  Type.Object({ type: Type.Literal('sim_change'), customer_ids: CustomerIds }, { description: 'a phone reported a SIM change' }),
  Type.Object({ type: Type.Literal('payment_claim'), customer_ids: CustomerIds }, { description: 'a customer pressed "I paid" on the lock screen, or a claim was confirmed or rejected' }),
  Type.Object({ type: Type.Literal('family_usage'), customer_ids: CustomerIds }, { description: 'a family-care phone reported its usage, or its rules changed' }),
  Type.Object({ type: Type.Literal('notification') }, { description: 'a notification for you arrived, or yours were read on another device' }),
  Type.Object({ type: Type.Literal('batch'), id: Type.String({ format: 'uuid' }) }, { description: 'a bulk lock/unlock batch moved' }),
  Type.Object({ type: Type.Literal('dues') }, { description: "the organisation's daily dues run changed penalties and statuses" }),
  Type.Object({ type: Type.Literal('network') }, { description: 'you, a member above you or one below you changed: switches, block state, details or key balances' }),
  Type.Object({ type: Type.Literal('antihacking') }, { description: 'an anti-hacking plan you may see was sold, activated on the phone or revoked' }),
  Type.Object({ type: Type.Literal('warranty') }, { description: 'an extended warranty you may see was sold or revoked, or one of its claims moved' }),
  Type.Object({ type: Type.Literal('campaign') }, { description: 'an offers campaign you may see started, moved on (phones reached, opened) or finished' }),
  Type.Object(
    { type: Type.Literal('payment'), customer_ids: CustomerIds },
    { description: "a gateway order was created or moved (paid, held, expired, failed): the customers it was for; empty for a retailer's key order" },
  ),
]);
export type StreamEvent = Static<typeof StreamEvent>;

/** The stream's own messages: `event: ready` when it opens, `event: end` with the reason when the server closes it. */
export const StreamEnd = Type.Object({ reason: Type.Union([Type.Literal('session'), Type.Literal('shutdown')]) });
export type StreamEnd = Static<typeof StreamEnd>;
