/** Reads the server URL and enrolment token out of what the retailer's QR code holds. */

export interface EnrolmentTarget {
  server: string;
  token: string;
}

const EXTRAS = 'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE';

/** Accepts the DPC provisioning JSON or a `kisht://enrol?server=&token=` deep link. */
export function parseEnrolmentPayload(text: string): EnrolmentTarget {
  const trimmed = text.trim();
  if (trimmed.startsWith('kisht://')) {
    const url = new URL(trimmed);
    const server = url.searchParams.get('server');
    const token = url.searchParams.get('token');
    if (!server || !token) throw new Error('the enrolment link has no server or token');
    return { server, token };
  }
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(trimmed) as Record<string, unknown>;
  } catch {
    throw new Error('the QR payload is neither provisioning JSON nor a kisht:// link');
  }
  const raw = payload[EXTRAS];
  // Some provisioning tools pass the extras bundle as JSON text.
  const extras = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown> | undefined;
  const server = extras?.['kisht.server'];
  const token = extras?.['kisht.token'];
  if (typeof server !== 'string' || typeof token !== 'string') throw new Error(`the QR payload has no ${EXTRAS} with kisht.server and kisht.token`);
  if (extras?.['kisht.v'] !== undefined && extras['kisht.v'] !== '1') throw new Error(`unknown enrolment payload version ${String(extras['kisht.v'])}`);
  return { server, token };
}
