import type { FastifyRequest } from 'fastify';
import type { ClientDetails } from '../modules/sessions/sessions.repository.ts';

const MAX = 512;

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, MAX) : null;
}

/** What the console says about the phone and browser it runs on (the x-device-*, x-browser-* headers). */
export function clientDetailsOf(request: FastifyRequest): ClientDetails {
  return {
    ip: request.ip ?? null,
    auth_platform: header(request, 'x-auth-platform'),
    device_details: header(request, 'x-device-details'),
    browser_name: header(request, 'x-browser-name'),
    browser_version: header(request, 'x-browser-version'),
    device_type: header(request, 'x-device-type'),
    device_platform: header(request, 'x-device-platform'),
  };
}
