/**
 * GET /api/dev/outbox: the development SMS outbox. Registered only when SMS_PROVIDER=dev-outbox (never in
 * production), and answered only to callers on this machine: the OTPs in it sign anyone in.
 */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { Mobile } from '@kisht/contract/auth';
import type { SmsOutboxRepository } from './sms-outbox.repository.ts';
import { AppError } from '../../errors.ts';
import { isFromThisMachine } from '../../shared/loopback.ts';


export async function devRoutes(app: App, opts: { outbox: SmsOutboxRepository }) {
  app.get('/api/dev/outbox', {
    config: { public: true, skipEmm: true, callers: ['operator'], scope: 'all' },
    schema: {
      tags: ['development'],
      summary: 'Messages the development SMS provider would have sent, newest first',
      querystring: Type.Object({ to: Type.Optional(Mobile), limit: Type.Integer({ minimum: 1, maximum: 200, default: 20 }) }),
      response: {
        200: Type.Object({
          success: Type.Literal(true),
          message: Type.String(),
          data: Type.Array(Type.Object({ id: Type.Integer(), recipient: Type.String(), body: Type.String(), purpose: Type.Union([Type.String(), Type.Null()]), created_at: Type.String() })),
        }),
      },
    },
  }, async (request) => {
    if (!isFromThisMachine(request)) throw new AppError('ROUTE_NOT_FOUND');
    const rows = await opts.outbox.latest(request.query.to, request.query.limit);
    return { success: true as const, message: 'Success', data: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
  });
}
