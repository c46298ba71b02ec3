import type { FastifyReply, FastifyRequest } from 'fastify';
import { languageOf, translate, type SuccessMessage } from './messages.ts';

/** The success envelope, with the message in the caller's language. */
export function ok<T>(request: FastifyRequest, data: T, message: SuccessMessage = 'OK') {
  const lng = languageOf(request.headers.cookie);
  return { success: true as const, message: translate(lng, `messages.${message}`), data };
}

/**
 * A stored image (a customer document, a retailer's photo or QR) as its bytes: never sniffed into something
 * else by the browser, never run as a page, kept privately for five minutes, shown inline under `name`.
 */
export function sendStoredImage(reply: FastifyReply, image: { contentType: string; bytes: Buffer }, name: string) {
  return reply
    .type(image.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=300')
    .header('content-disposition', `inline; filename="${name}.${image.contentType === 'image/png' ? 'png' : 'jpg'}"`)
    .send(image.bytes);
}
