/**
 * A mutation whose screen says the outcome once, after more steps (enrolment and its uploads), keeps the
 * server's message with its data so the screen can show the server's words (spec section 8) and not its own.
 */
import type { ApiMeta } from './base-query.ts';

export type WithServerMessage<T> = T & { serverMessage: string | null };

export const keepServerMessage = <T extends object>(data: T, meta: ApiMeta | undefined): WithServerMessage<T> => ({
  ...data,
  serverMessage: meta?.message ?? null,
});
