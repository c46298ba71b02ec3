/** PostgreSQL error classes the services turn into answers. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** A value the table's CHECK constraint (23514) or its column type (22003 numeric, 22001 string too long) refuses. */
export function isRefusedValue(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '23514' || code === '22003' || code === '22001';
}

/** Socket-level failures on the way to the database server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs that mean "the server went away or cannot take us now", not "the statement was wrong". */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);
/** What node-postgres and PGlite say when the connection or the instance is gone. */
const GONE_MESSAGES = [
  /connection terminated/i,
  /not queryable/i,
  /timeout exceeded when trying to connect/i,
  /connection (?:is )?(?:closed|ended|lost)/i,
  /pglite is closed/i,
  /cannot use a pool after calling end/i,
];

/**
 * Whether an error means the database cannot be reached (down, restarting, cut off) rather than that the
 * request was wrong: such errors answer 503 SERVICE_UNAVAILABLE, and the same request may succeed later.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === 'string' && GONE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // AggregateError (a host with several addresses, all refused) and wrapped causes.
  const { errors, cause } = error as { errors?: unknown; cause?: unknown };
  const nested = [...(Array.isArray(errors) ? (errors as unknown[]) : []), cause];
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
