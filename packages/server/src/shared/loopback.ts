import type { FastifyRequest } from 'fastify';

/** Whether the request comes from this machine (the socket's address; proxy headers are not trusted here). */
export function isFromThisMachine(request: FastifyRequest): boolean {
  return /^(127\.|::1$|::ffff:127\.)/.test(request.socket.remoteAddress ?? '');
}
