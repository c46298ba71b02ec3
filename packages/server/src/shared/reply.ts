import type { FastifyRequest } from 'fastify';
import { languageOf, translate, type SuccessMessage } from './messages.ts';

/** The success envelope, with the message in the caller's language. */
export function ok<T>(request: FastifyRequest, data: T, message: SuccessMessage = 'OK') {
  const lng = languageOf(request.headers.cookie);
  return { success: true as const, message: translate(lng, `messages.${message}`), data };
}
