/**
 * The fuzz walk: every operation of /api/openapi.json gets boundary and malformed values in each of its
 * parameters (path, query, header, body fields; broken multipart bodies on uploads), signed in as a retailer
 * and, where the operation needs no bearer session, anonymously too. No answer may be a 5xx; 511 is the
 * API's "session ended" signal (logout, MPIN lock), after which the walk signs in again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { ERROR_CODES } from '@kisht/contract/envelope';
import { INT4_MAX } from '@kisht/contract/fields';
import { startTestApp, RAVI, CONSOLE_HEADERS, type TestApp } from './harness.ts';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
}
interface Parameter { in: 'path' | 'query' | 'header' | 'cookie'; name: string; schema: Schema }
interface Operation {
  summary?: string;
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Walked { method: string; path: string; op: Operation }
type Key = string | number;

/** Values a JSON body field gets, one at a time (wrong types, edges of int4 and int53, text that breaks storage). */
const BODY_VALUES: Array<[string, unknown]> = [
  ['2^31', 2 ** 31], ['2^53', 2 ** 53], ['-1', -1], ['0', 0], ['1.5', 1.5], ['empty', ''], ['long', 'x'.repeat(5000)],
  ['NUL', 'a\u0000b'], ['control', 'a\u0001\u001b[31mb\u007f'], ['"2^31"', '2147483648'], ['bool', true], ['null', null],
  ['array', [1, 2]], ['object', { a: 1 }],
];
/** Values a query, path or header parameter gets; `[array]` repeats the parameter. */
const TEXT_VALUES: Array<[string, string | string[]]> = [
  ['2^31', '2147483648'], ['2^53', '9007199254740993'], ['-1', '-1'], ['0', '0'], ['empty', ''], ['long', 'x'.repeat(5000)],
  ['NUL', 'a\u0000b'], ['control', 'a\u0001\u001bb'], ['word', 'abc'], ['huge', '1e400'], ['array', ['1', '2']],
];
/** Whole bodies that are not what a JSON route expects. */
const RAW_BODIES: Array<[string, string, string]> = [
  ['truncated JSON', '{"customer_id":', 'application/json'],
  ['JSON array', '[]', 'application/json'],
  ['JSON string', '"text"', 'application/json'],
  ['JSON null', 'null', 'application/json'],
  ['empty JSON', '', 'application/json'],
  ['empty object', '{}', 'application/json'],
  ['prototype key', '{"__proto__":{"admin":true}}', 'application/json'],
  ['NUL key', '{"\\u0000":1}', 'application/json'],
  ['deep nesting', `${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}`, 'application/json'],
  ['form', 'customer_id=1', 'application/x-www-form-urlencoded'],
  ['plain text', 'hello', 'text/plain'],
];

/** The smallest real PNG (1x1). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function multipartBody(boundary: string, fields: Record<string, string>, file?: Buffer): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="walk.png"\r\nContent-Type: image/png\r\n\r\n`), file, Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Broken and edge uploads: each is [label, body, content type]. */
function multipartCases(customerId: number): Array<[string, Buffer | string, string]> {
  const b = 'walkboundary';
  const type = `multipart/form-data; boundary=${b}`;
  const whole = multipartBody(b, { customer_id: String(customerId) }, PNG);
  const cases: Array<[string, Buffer | string, string]> = [
    ['no boundary', whole, 'multipart/form-data'],
    ['truncated', whole.subarray(0, whole.length - 40), type],
    ['cut in the headers', whole.subarray(0, 30), type],
    ['empty', Buffer.alloc(0), type],
    ['no closing line', Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="customer_id"\r\n\r\n${customerId}\r\n`), type],
    ['no file', multipartBody(b, { customer_id: String(customerId) }), type],
    ['no customer_id', multipartBody(b, {}, PNG), type],
    ['two files', Buffer.concat([multipartBody(b, { customer_id: String(customerId) }, PNG).subarray(0, -(b.length + 6)), multipartBody(b, {}, PNG)]), type],
    ['JSON instead', JSON.stringify({ customer_id: customerId }), 'application/json'],
    ['plain text', 'hello', 'text/plain'],
    ['not an image', multipartBody(b, { customer_id: String(customerId) }, Buffer.from('%PDF-1.4 not an image')), type],
  ];
  for (const [label, value] of TEXT_VALUES) {
    if (Array.isArray(value)) cases.push([`customer_id ${label}`, multipartBody(b, { customer_id: value[0]! }, PNG), type]);
    else cases.push([`customer_id ${label}`, multipartBody(b, { customer_id: value }, PNG), type]);
  }
  return cases;
}

const STRING_SAMPLES = ['+919812345678', '123456', '1234', '110001', '490154203237518', 'en.json', 'device.lock', 'ABCDEFGH1234', '12.5', 'a'.repeat(43), 'ref_no', 'walk-key-0001', 'x'];

function sampleString(s: Schema): string {
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'date') return '2026-06-15';
  if (s.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
  if (s.format === 'email') return 'walk@example.com';
  const min = s.minLength ?? 1;
  const max = s.maxLength ?? Infinity;
  const fits = (v: string) => v.length >= min && v.length <= max && (!s.pattern || new RegExp(s.pattern, 'u').test(v));
  return STRING_SAMPLES.find(fits) ?? 'x'.repeat(Math.max(min, 3));
}

/** The object branch of a schema (the first one of a union), or null. */
function objectOf(s: Schema | undefined): Schema | null {
  if (!s) return null;
  if (s.properties) return s;
  for (const branch of s.anyOf ?? s.oneOf ?? []) {
    const found = objectOf(branch);
    if (found) return found;
  }
  return null;
}

/** A valid-looking value for a schema, so that the one field the walk changes is what the server meets. */
function sample(s: Schema, name: string, known: Record<string, unknown>): unknown {
  if (name in known) return known[name];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.enum) return s.enum[0];
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return sample(branches.find((b) => b.type !== 'null') ?? branches[0]!, name, known);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      return sampleString(s);
    case 'array':
      return s.items ? [sample(s.items, '', known)] : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sample(s.properties?.[key] ?? {}, key, known);
      return out;
    }
    default:
      return 'x';
  }
}

/** Every field of a body, nested objects, array items and record values included (five levels deep at most). */
function fieldsOf(s: Schema, prefix: Key[] = []): Key[][] {
  const object = objectOf(s);
  if (!object || prefix.length > 4) return [];
  const out: Key[][] = [];
  for (const [name, child] of Object.entries(object.properties ?? {})) {
    const here = [...prefix, name];
    out.push(here);
    const inner = objectOf(child);
    if (inner) out.push(...fieldsOf(inner, here));
    else if (child.items && objectOf(child.items)) out.push(...fieldsOf(child.items, [...here, 0]));
    else if (child.patternProperties || typeof child.additionalProperties === 'object') out.push([...here, 'ref_no']);
  }
  return out;
}

function schemaAt(s: Schema, keys: Key[]): Schema {
  let node: Schema = s;
  for (const key of keys) {
    if (typeof key === 'number') node = node.items ?? {};
    else {
      const object = objectOf(node);
      node = object?.properties?.[key] ?? Object.values(object?.patternProperties ?? node.patternProperties ?? {})[0] ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : {});
    }
  }
  return node;
}

/** A copy of `base` with `value` at `keys`, filling the containers on the way with valid samples. */
function withValue(base: unknown, root: Schema, keys: Key[], value: unknown, known: Record<string, unknown>): unknown {
  const copy = structuredClone(base) as Record<Key, unknown>;
  let node = copy;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (next === null || typeof next !== 'object') {
      const childSchema = schemaAt(root, keys.slice(0, i + 1));
      const made = sample(childSchema, String(key), known);
      node[key] = made !== null && typeof made === 'object' ? made : typeof keys[i + 1] === 'number' ? [{}] : {};
    }
    node = node[key] as Record<Key, unknown>;
    if (Array.isArray(node) && node.length === 0) node.push(sample(schemaAt(root, keys.slice(0, i + 2)), '', known));
  });
  return copy;
}

function queryString(values: Record<string, string | string[]>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    for (const one of Array.isArray(value) ? value : [value]) parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(one)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const uploads = mkdtempSync(path.join(tmpdir(), 'kisht-walk-'));
let t: TestApp;
/** A customer of the retailer's, so that the walk's valid ids reach past the lookups into the real work. */
let customerId: number;
/** A customer only the cancel route walks with (cancelling removes it). */
let spareCustomerId: number;

beforeAll(async () => {
  t = await startTestApp({
    env: { UPLOAD_DIR: uploads },
    limits: { otpSendsPerMobilePerHour: 100_000, otpSendsPerIpPerHour: 100_000, otpResendAfterSeconds: 0, otpMaxResends: 100_000 },
  });
  const { token } = await t.signIn(RAVI);
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const created = await t.post('/api/customer', {
    first_name: 'Walk', last_name: 'Customer', mobile: '+919812300007', device_brand: 'Oppo', device_model: 'A78', imei1: withImeiCheckDigit('35222222222222'),
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 900_000, down_payment_paise: 0,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 3, first_due_date: '2030-01-05', start_date: '2029-12-05',
  }, { token });
  if (created.statusCode !== 200) throw new Error(`could not create the walk's customer: ${created.body}`);
  customerId = created.json().data.customer.id as number;
  // A payment on it: the walk may send a cancel with any id it tries, and an enrolment with money on it stays.
  const paid = await t.post('/api/emi/multiple_emi_paid', { customer_id: customerId, amount_paise: 100, method: 'cash' }, { token });
  if (paid.statusCode !== 200) throw new Error(`could not pay on the walk's customer: ${paid.body}`);
  const spare = await t.post('/api/customer', {
    first_name: 'Spare', last_name: 'Customer', mobile: '+919812300008', device_brand: 'Oppo', device_model: 'A78', imei1: withImeiCheckDigit('35222222222233'),
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 900_000, down_payment_paise: 0,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 3, first_due_date: '2030-01-05', start_date: '2029-12-05',
  }, { token });
  if (spare.statusCode !== 200) throw new Error(`could not create the spare customer: ${spare.body}`);
  spareCustomerId = spare.json().data.customer.id as number;
});
afterAll(async () => {
  await t.stop();
  rmSync(uploads, { recursive: true, force: true });
});

describe('fuzz walk of the OpenAPI document', () => {
  it('answers every boundary and malformed value with a 4xx, never a 5xx', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    let session = await t.signIn(RAVI);
    const orgOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { org: number }).org;

    const emi = (await t.get(`/api/emi/customer_emi_details?customer_id=${customerId}`, { token: session.token })).json();
    const known: Record<string, unknown> = { customer_id: customerId, customer_ids: [customerId], instalment_id: emi.data?.instalments?.[0]?.id ?? 1 };
    // Cancelling an enrolment removes the customer: that route walks with a spare one, so the others keep theirs.
    const spare = { ...known, customer_id: spareCustomerId, customer_ids: [spareCustomerId] };
    const knownFor = (w: Walked) => (w.path === '/api/customer/cancel_enrolment' ? spare : known);

    let sent = 0;
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const malformed: string[] = [];

    async function send(w: Walked, signedIn: boolean, where: string, url: string, payload?: { body: string | Buffer; type: string }, headers: Record<string, string> = {}) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const all: Record<string, string> = { ...CONSOLE_HEADERS, ...headers };
        const org = signedIn ? orgOf(session.token) : t.config.APP_ORG_ID;
        if (signedIn) all.authorization = `Bearer ${session.token}`;
        all['x-emm-auth-session'] = await createEmmAuthSession(url.split('?')[0]!, org);
        if (payload) all['content-type'] = payload.type;
        sent++;
        const res = await t.app.inject({ method: w.method.toUpperCase() as 'GET', url, headers: all, ...(payload ? { payload: payload.body } : {}) });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const code = res.headers['content-type']?.toString().includes('json') ? (res.json() as { code?: string }).code : undefined;
        if (res.statusCode === 511 && (code === 'SESSION_INVALID' || code === 'MPIN_LOCKED')) {
          // The walk itself ended the session (logout, too many wrong MPINs): sign in again and repeat once.
          if (signedIn && attempt === 0) {
            session = await t.signIn(RAVI);
            continue;
          }
          return;
        }
        if (res.statusCode >= 500) failures.push(`${res.statusCode} ${code ?? ''} ${w.method.toUpperCase()} ${w.path} ${where}`);
        // Apple's MDM endpoints speak Apple's protocol, not the API envelope.
        else if (res.statusCode >= 400 && w.path.startsWith('/api/') && (!code || !(ERROR_CODES as readonly string[]).includes(code))) malformed.push(`${res.statusCode} ${w.method.toUpperCase()} ${w.path} ${where}: ${res.body.slice(0, 80)}`);
        return;
      }
    }

    async function walk(w: Walked, signedIn: boolean) {
      const params = (w.op.parameters ?? []).filter((p) => p.in !== 'cookie');
      const base: Record<string, string | string[]> = {};
      const known = knownFor(w);
      for (const p of params) base[p.name] = String(sample(p.schema, p.name, known));
      const urlOf = (values: Record<string, string | string[]>) => {
        let url = w.path;
        const query: Record<string, string | string[]> = {};
        for (const p of params) {
          const value = values[p.name]!;
          if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(Array.isArray(value) ? value[0]! : value));
          else if (p.in === 'query') query[p.name] = value;
        }
        return url + queryString(query);
      };
      const headersOf = (values: Record<string, string | string[]>) => {
        const out: Record<string, string> = {};
        for (const p of params) if (p.in === 'header') out[p.name] = String(values[p.name]);
        return out;
      };

      const content = w.op.requestBody?.content ?? {};
      const json = content['application/json']?.schema;
      const upload = content['multipart/form-data'];
      const baseBody = json ? sample(json, '', known) : undefined;
      const jsonPayload = (value: unknown) => ({ body: JSON.stringify(value), type: 'application/json' });
      const basePayload = json ? jsonPayload(baseBody) : undefined;

      for (const p of params) {
        for (const [label, value] of TEXT_VALUES) {
          // Header values cannot carry control characters or repeat on the wire.
          if (p.in === 'header' && (Array.isArray(value) || [...value].some((c) => c.charCodeAt(0) < 0x20))) continue;
          const values = { ...base, [p.name]: value };
          await send(w, signedIn, `${p.in} ${p.name}=${label}`, urlOf(values), basePayload, headersOf(values));
        }
      }
      if (params.length === 0) await send(w, signedIn, 'stray query', `${w.path}?customer_id=2147483648&x=%00`, basePayload);
      if (json) {
        for (const keys of fieldsOf(json)) {
          for (const [label, value] of BODY_VALUES) {
            await send(w, signedIn, `body ${keys.join('.')}=${label}`, urlOf(base), jsonPayload(withValue(baseBody, json, keys, value, known)), headersOf(base));
          }
        }
      }
      if (upload) {
        for (const [label, body, type] of multipartCases(customerId)) await send(w, signedIn, `multipart ${label}`, urlOf(base), { body, type }, headersOf(base));
      } else if (w.method !== 'get') {
        for (const [label, body, type] of RAW_BODIES) await send(w, signedIn, `raw ${label}`, urlOf(base), { body, type }, headersOf(base));
      }
    }

    const walked: Walked[] = [];
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) walked.push({ method, path: route, op });
    }
    // What ends the walk's own session goes last, so most of the walk needs no new sign-in.
    const endsSession = (w: Walked) => /logout|mpin/.test(w.path);
    walked.sort((a, b) => Number(endsSession(a)) - Number(endsSession(b)));

    for (const w of walked) {
      const needsSession = (w.op.security ?? []).some((s) => 'bearer' in s);
      await walk(w, true);
      if (!needsSession) await walk(w, false);
    }

    const failedOps = new Set(failures.map((f) => f.split(' ').slice(2, 4).join(' ')));
    console.log(`fuzz walk: ${sent} requests on ${walked.length} operations, ${failures.length} answered 5xx on ${failedOps.size} operations; by status: ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}x${n}`).join(' ')}`);
    if (failures.length) console.log(failures.join('\n'));
    expect(walked.length).toBeGreaterThan(100);
    expect(sent).toBeGreaterThan(walked.length * 10);
    expect(failures.slice(0, 60), `${failures.length} requests answered 5xx`).toEqual([]);
    expect(malformed.slice(0, 30), 'every 4xx carries a known error code').toEqual([]);
  }, 240_000);
});

describe('the guards the walk relies on', () => {
  const hindi = JSON.parse(readFileSync(new URL('../../locales/hn.json', import.meta.url), 'utf8')) as { validation: Record<string, string> };
  const uploadRoutes = ['/api/customer/update_profile_image', '/api/customer/update_customer_signature', '/api/customer/update_witness_signature', '/api/customer/update_customer_invoice'];
  const signup = { first_name: 'Asha', last_name: 'Verma', mobile: '+919812300001', shop_name: 'Asha Mobiles', city: 'Pune' };

  it('refuses a NUL byte in the public signup request with a translated control_characters detail', async () => {
    const res = await t.post('/api/user/signup_request', { ...signup, shop_name: 'Asha\u0000Mobiles' }, { headers: { cookie: 'i18next=hn' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details).toEqual([{ field: 'shop_name', rule: 'control_characters', message: hindi.validation.control_characters }]);
    expect((await t.post('/api/user/signup_request', signup)).statusCode).toBe(200);
  });

  it('allows line breaks only in free text', async () => {
    const s = await t.signIn(RAVI);
    const address = await t.post('/api/customer/update_customer_detailsV3', { customer_id: customerId, address: '12 MG Road\nPune\t411001' }, { token: s.token });
    expect(address.statusCode).toBe(200);
    const name = await t.post('/api/customer/update_customer_detailsV3', { customer_id: customerId, first_name: 'Asha\nVerma' }, { token: s.token });
    expect(name.statusCode).toBe(400);
    expect(name.json().details[0]).toMatchObject({ field: 'first_name', rule: 'control_characters' });
    const bell = await t.post('/api/customer/update_customer_detailsV3', { customer_id: customerId, address: 'ring\u0007' }, { token: s.token });
    expect(bell.json().details[0]).toMatchObject({ field: 'address', rule: 'control_characters' });
    const query = await t.get('/api/customer/get_customers_keygen?search=a%00b', { token: s.token });
    expect(query.json().details[0]).toMatchObject({ field: 'search', rule: 'control_characters' });
  });

  it('refuses ids beyond int4 and numbers that are not finite', async () => {
    const s = await t.signIn(RAVI);
    for (const value of ['2147483648', '9007199254740993', '1e400']) {
      const res = await t.get(`/api/emi/receipt?payment_id=${value}`, { token: s.token });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const body = await t.post('/api/device/lock', { customer_id: 2 ** 31 }, { token: s.token });
    expect(body.statusCode).toBe(400);
    expect((await t.get(`/api/emi/receipt?payment_id=${INT4_MAX}`, { token: s.token })).statusCode).toBe(404);
    const url = '/api/device/lock';
    const cut = await t.app.inject({
      method: 'POST', url, payload: '{"customer_id":',
      headers: { ...CONSOLE_HEADERS, authorization: `Bearer ${s.token}`, 'content-type': 'application/json', 'x-emm-auth-session': await createEmmAuthSession(url, t.config.APP_ORG_ID) },
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'body', rule: 'invalid' }] });
  });

  it('documents bounds and upload bodies in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const unbounded: string[] = [];
    // Ids and page numbers fit an int4 column; every other integer is at least a safe one; every array has a cap.
    const visit = (s: Schema | undefined, where: string) => {
      if (!s) return;
      const node = s as Schema & { maximum?: number; maxItems?: number; items?: Schema };
      const limit = /(_id|\bpage)$/.test(where) ? INT4_MAX : Number.MAX_SAFE_INTEGER;
      if ((node.type === 'integer' && !(typeof node.maximum === 'number' && node.maximum <= limit)) || (node.type === 'array' && node.maxItems === undefined)) unbounded.push(where);
      for (const [name, child] of Object.entries(node.properties ?? {})) visit(child, `${where}.${name}`);
      if (node.items) visit(node.items, `${where}[]`);
      for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) visit(branch, where);
    };
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const p of op.parameters ?? []) visit(p.schema, `${method} ${route} ${p.name}`);
        for (const media of Object.values(op.requestBody?.content ?? {})) visit(media.schema, `${method} ${route} body`);
      }
    }
    expect(unbounded).toEqual([]);
    for (const route of uploadRoutes) {
      const form = doc.paths[route]?.post?.requestBody?.content['multipart/form-data']?.schema;
      expect(Object.keys(form?.properties ?? {}), route).toEqual(['customer_id', 'file']);
      expect(form?.properties?.file?.format).toBe('binary');
    }
  });

  it('answers a malformed upload with 400 and still takes a good one', async () => {
    const s = await t.signIn(RAVI);
    const org = (JSON.parse(Buffer.from(s.token.split('.')[1]!, 'base64url').toString()) as { org: number }).org;
    const send = async (url: string, body: Buffer, type: string) => t.app.inject({
      method: 'POST', url, payload: body,
      headers: { ...CONSOLE_HEADERS, authorization: `Bearer ${s.token}`, 'content-type': type, 'x-emm-auth-session': await createEmmAuthSession(url, org) },
    });
    const whole = multipartBody('b0undary', { customer_id: String(customerId) }, PNG);
    for (const url of uploadRoutes) {
      const cut = await send(url, whole.subarray(0, whole.length - 30), 'multipart/form-data; boundary=b0undary');
      expect(cut.statusCode, url).toBe(400);
      expect(cut.json().details[0]).toMatchObject({ field: 'body', rule: 'invalid' });
      expect((await send(url, whole, 'multipart/form-data')).statusCode, url).toBe(400);
      const noFile = await send(url, multipartBody('b0undary', { customer_id: String(customerId) }), 'multipart/form-data; boundary=b0undary');
      expect(noFile.json().details[0]).toMatchObject({ field: 'file', rule: 'required' });
    }
    const good = await send(uploadRoutes[0]!, whole, 'multipart/form-data; boundary=b0undary');
    expect(good.statusCode, good.body).toBe(200);
  });
});
