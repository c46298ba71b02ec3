/**
 * POST /api/operator/run: runs an operator command inside the running server. The CLI uses it when the
 * server holds the PGlite data folder (PGlite is one process's database; a second opener would corrupt
 * it). Only from this machine, and only with the operator key derived from the app secret.
 */
import { timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import type { Database } from '../../db/database.ts';
import { ErrorReply } from '@kisht/contract/envelope';
import { AppError } from '../../errors.ts';
import { isFromThisMachine } from '../../shared/loopback.ts';
import { runOperatorCommand } from './operator.service.ts';


/** `changed`: a command may have switched users or access off; cached sessions are read again. */
export async function operatorRoutes(app: App, opts: { db: Database; operatorKey: string; changed?: () => void }) {
  const expected = Buffer.from(opts.operatorKey);
  app.post('/api/operator/run', {
    config: { public: true, skipEmm: true, callers: ['operator'], scope: 'all' },
    schema: {
      tags: ['operator'],
      summary: 'Run an operator command (local machine and operator key only)',
      headers: Type.Object({ 'x-operator-key': Type.String() }),
      body: Type.Object({ args: Type.Array(Type.String({ maxLength: 200 }), { minItems: 1, maxItems: 20 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ code: Type.Integer(), lines: Type.Array(Type.String()) }), 400: ErrorReply, 404: ErrorReply },
    },
  }, async (request) => {
    const given = Buffer.from(request.headers['x-operator-key']);
    const local = isFromThisMachine(request);
    if (!local || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('ROUTE_NOT_FOUND');
    const lines: string[] = [];
    const code = await runOperatorCommand(opts.db, request.body.args, (line) => lines.push(line));
    opts.changed?.();
    return { code, lines };
  });
}
