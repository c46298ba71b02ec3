/**
 * The audit log's rules: what a request leaves behind (who, what, the ids it was about, from where), who may
 * read which rows (a retailer its network, a mini-retailer its own entries, nobody another network's), and
 * the operator's CSV export.
 */
import type { Queryable } from '../../db/database.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { AuditList, AuditQuery } from '@kisht/contract/audit';
import { maskMobile } from '@kisht/domain/mobile';
import { csvCell } from '../../shared/csv.ts';
import { AppError } from '../../errors.ts';
import type { AuditRecord, AuditRepository, AuditRow, AuditSubject } from './audit.repository.ts';

/** Request fields worth keeping as targets: ids and choices, never codes, PINs, tokens or free text. */
const TARGET_KEYS = [
  'customer_id', 'customer_ids', 'payment_id', 'emi_id', 'emi_ids', 'instalment_id', 'instalment_ids', 'schedule_id', 'batch_id',
  'session_id', 'all_others', 'purpose', 'action', 'on', 'command', 'policy', 'lock', 'type', 'filter', 'retailer_id', 'amount_paise', 'method',
  'reason', 'run_at', 'document_type', 'user_id', 'to_user_id', 'active', 'kind', 'quantity', 'product_type', 'transfer_id', 'decision',
  'user_type', 'price_paise', 'user_access', 'lock_access', 'plan_id', 'app_type', 'sale_id', 'claim_id', 'photo_ids', 'to', 'assessed_cost_paise', 'cause',
] as const;
/** Fields of a successful answer that name what was created. */
const RESULT_KEYS = ['id', 'payment_id', 'batch_id', 'schedule_id', 'reversal_of', 'keys_left', 'user_id', 'image_type', 'upi_id', 'photo_id', 'payable_paise'] as const;
const MAX_LIST = 50;
const MAX_TEXT = 100;
const MAX_HEADER = 300;

function bounded(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.slice(0, MAX_TEXT);
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_LIST).map((v) => bounded(v, depth + 1));
    return value.length > MAX_LIST ? [...kept, `+${value.length - MAX_LIST}`] : kept;
  }
  if (typeof value === 'object' && depth < 2) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).slice(0, 20).map(([k, v]) => [k.slice(0, 40), bounded(v, depth + 1)]));
  }
  return undefined;
}

function pick(source: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!source || typeof source !== 'object' || Array.isArray(source)) return out;
  for (const key of keys) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = bounded(value);
  }
  return out;
}


/** What the audit hook knows about a finished request. */
export interface RequestFacts {
  action: string;
  auth: RequestAuth | null;
  status: number;
  errorCode: string | null;
  method: string;
  route: string;
  body: unknown;
  query: unknown;
  /** The `data` of a successful answer, when it was JSON. */
  result: unknown;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

const CLIENT_HEADERS = ['x-auth-platform', 'x-device-details', 'x-browser-name', 'x-browser-version', 'x-device-type', 'x-device-platform'];

function headerText(headers: RequestFacts['headers'], name: string): string | null {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, MAX_HEADER) : null;
}

export interface AuditDeps {
  audit: AuditRepository;
  /** A member below the caller in the network (its network and id), or null for anyone else. */
  memberBelow?: (callerId: number, userId: number) => Promise<{ id: number; account_id: number } | null>;
}

export function createAuditService(deps: AuditDeps) {
  const { audit } = deps;

  /**
   * The user a sign-in route without a session was about: from the OTP request it names, or the mobile
   * number, so attempts on a retailer's number show in that retailer's log. Other anonymous requests name nobody.
   */
  async function subjectOf(facts: RequestFacts): Promise<AuditSubject | undefined> {
    if (!facts.action.startsWith('auth.')) return undefined;
    const body = (facts.body ?? {}) as Record<string, unknown>;
    if (typeof body.request_id === 'string' && /^[0-9a-f-]{36}$/i.test(body.request_id)) return audit.subjectOfOtpRequest(body.request_id);
    if (typeof body.mobile === 'string' && body.mobile.length <= 20) return audit.subjectOfMobile(body.mobile);
    return undefined;
  }

  return {
    /** Writes the row a request leaves: the caller, the action and its outcome, the ids, the address and device. */
    async recordRequest(facts: RequestFacts): Promise<void> {
      const subject = facts.auth ? { user_id: facts.auth.userId, org_id: facts.auth.orgId, account_id: facts.auth.accountId } : await subjectOf(facts);
      const targets: Record<string, unknown> = { ...pick(facts.query, TARGET_KEYS), ...pick(facts.body, TARGET_KEYS) };
      const body = (facts.body ?? {}) as Record<string, unknown>;
      if (!facts.auth && typeof body.mobile === 'string') targets.mobile = maskMobile(body.mobile.slice(0, 20));
      if (facts.status < 300) {
        // A list answer of one item (the spec's add-customer data list) is read as that item.
        const answer = Array.isArray(facts.result) && facts.result.length === 1 ? (facts.result[0] as unknown) : facts.result;
        const result = pick(answer, RESULT_KEYS);
        // An enrolment answers with the customer it created.
        const created = (facts.result as { customer?: { id?: unknown } } | null)?.customer?.id;
        if (typeof created === 'number' && targets.customer_id === undefined) targets.customer_id = created;
        if (Object.keys(result).length) targets.result = result;
      }
      const client: Record<string, string> = {};
      for (const name of CLIENT_HEADERS) {
        const value = headerText(facts.headers, name);
        if (value) client[name.slice(2)] = value;
      }
      const customerId = typeof targets.customer_id === 'number' ? targets.customer_id : null;
      const record: AuditRecord = {
        actor: subject ? 'user' : 'anonymous',
        orgId: subject?.org_id ?? null,
        accountId: subject?.account_id ?? null,
        userId: subject?.user_id ?? null,
        action: facts.action,
        status: facts.status,
        errorCode: facts.errorCode,
        method: facts.method,
        route: facts.route,
        customerId,
        targets,
        ip: facts.ip,
        userAgent: headerText(facts.headers, 'user-agent'),
        client,
      };
      await audit.record(record);
    },

    /** What the operator CLI changed (access and organisation switches, device policies). */
    recordOperator(action: string, target: { orgId?: number | null; accountId?: number | null; userId?: number | null }, targets: Record<string, unknown>, q?: Queryable): Promise<void> {
      return audit.record({ actor: 'operator', orgId: target.orgId ?? null, accountId: target.accountId ?? null, userId: target.userId ?? null, action, status: null, targets: pick(targets, Object.keys(targets)) }, q);
    },

    /** A page of the caller's activity: a retailer sees its network, a mini-retailer only its own entries. */
    async list(caller: RequestAuth, query: AuditQuery): Promise<AuditList> {
      let scope: { orgId: number; accountId: number; userId: number | null; foreign?: boolean } = {
        orgId: caller.orgId, accountId: caller.accountId, userId: caller.userType === 'retailer' ? null : caller.userId,
      };
      // One member's own entries: the caller's, or those of a member below it (its network may be another account).
      if (query.user_id !== undefined && query.user_id !== caller.userId) {
        const member = (await deps.memberBelow?.(caller.userId, query.user_id)) ?? null;
        if (!member) throw new AppError('NOT_FOUND');
        scope = { orgId: caller.orgId, accountId: member.account_id, userId: member.id, foreign: member.account_id !== caller.accountId };
      } else if (query.user_id !== undefined) {
        scope = { ...scope, userId: caller.userId };
      }
      const { rows, total } = await audit.list(
        scope,
        { action: query.action, from: query.from, to: query.to, limit: query.limit, offset: (query.page - 1) * query.limit },
      );
      // Another network's entries carry no customer and no details of what was done to whom.
      const items = rows.map(toEntry).map((item) => (scope.foreign ? { ...item, customer_id: null, customer_name: null, targets: {} } : item));
      return { total, page: query.page, limit: query.limit, items };
    },

    /** The log as CSV (a header, then one line per row, oldest first), streamed a page at a time. */
    async exportCsv(filter: { from?: string; to?: string; orgId?: number }, print: (line: string) => void): Promise<number> {
      print(CSV_COLUMNS.join(','));
      let afterId = 0;
      let count = 0;
      for (;;) {
        const rows = await audit.exportPage({ ...filter, afterId, limit: 1000 });
        for (const row of rows) print(toCsvLine(row));
        count += rows.length;
        if (rows.length < 1000) return count;
        afterId = rows[rows.length - 1]!.id;
      }
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

function toEntry(row: AuditRow): AuditList['items'][number] {
  const device = [row.client['device-platform'], row.client['browser-name'], row.client['device-type']].filter(Boolean).join(' · ');
  return {
    id: row.id, at: row.at.toISOString(), actor: row.actor, action: row.action, status: row.status, error_code: row.error_code,
    user_id: row.user_id, user_name: row.user_name, customer_id: row.customer_id, customer_name: row.customer_name,
    targets: row.targets, ip: row.ip, user_agent: row.user_agent, device: device || null,
  };
}

const CSV_COLUMNS = ['id', 'at', 'actor', 'org_id', 'account_id', 'user_id', 'action', 'status', 'error_code', 'method', 'route', 'customer_id', 'targets', 'ip', 'user_agent', 'client'] as const;


function toCsvLine(row: AuditRow): string {
  return CSV_COLUMNS.map((column) => csvCell(row[column])).join(',');
}
