/** The audit log: sign-ins, refusals, device commands and payments leave rows; rows cannot change; each network reads its own. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARJUN, MEENA, RAVI, SUNITA, type TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';
import { csvCell } from '../src/shared/csv.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;

interface Row {
  id: number; actor: string; org_id: number | null; account_id: number | null; user_id: number | null; action: string; status: number | null;
  error_code: string | null; method: string | null; route: string | null; customer_id: number | null; targets: Record<string, unknown>;
  ip: string | null; user_agent: string | null; client: Record<string, string>;
}

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
});
afterAll(() => t.stop());

const userId = async (mobile: string) => (await t.db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [mobile])).rows[0]!.id;
/** The rows written since `afterId` for one action. */
async function rowsOf(action: string, afterId: number): Promise<Row[]> {
  return (await t.db.query<Row>('SELECT id::int AS id, actor, org_id, account_id, user_id, action, status, error_code, method, route, customer_id, targets, ip, user_agent, client FROM audit_log WHERE action = $1 AND id > $2 ORDER BY id', [action, afterId])).rows;
}
/** One CSV line's cells (RFC 4180 quoting). */
function readCsvLine(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let cell = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (line[quote + 1] === '"') {
          cell += line.slice(i, quote + 1);
          i = quote + 2;
        } else {
          cell += line.slice(i, quote);
          i = quote + 2;
          break;
        }
      }
      cells.push(cell);
    } else {
      const comma = line.indexOf(',', i);
      const end = comma === -1 ? line.length : comma;
      cells.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return cells;
}
const lastId = async () => (await t.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM audit_log')).rows[0]!.id;
const list = async (token: string, query = '') => {
  const res = await t.get(`/api/audit/list?limit=100${query}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { total: number; items: Array<{ id: number; action: string; user_id: number | null; status: number | null; customer_id: number | null; customer_name: string | null; device: string | null }> };
};

describe('what leaves a row', () => {
  it('a sign-in, successful or not, names the user, the outcome, the address and the device', async () => {
    const before = await lastId();
    const arjun = await userId(ARJUN);
    await t.signIn(ARJUN, { 'user-agent': 'KishtConsole/1.0 (Android)' });
    const requested = await t.post('/api/auth/loginWithOtp', { mobile: ARJUN });
    const good = await t.latestOtp(ARJUN);
    const wrong = good === '000000' ? '111111' : '000000';
    expect((await t.post('/api/auth/verifyOtpAuth', { request_id: requested.json().data.request_id, otp: wrong })).statusCode).toBe(400);

    const signIns = await rowsOf('auth.sign_in', before);
    expect(signIns).toHaveLength(2);
    const [ok, failed] = signIns as [Row, Row];
    expect(ok).toMatchObject({ actor: 'user', user_id: arjun, org_id: 23, account_id: arjun, status: 200, error_code: null, method: 'POST', route: '/api/auth/verifyOtpAuth', user_agent: 'KishtConsole/1.0 (Android)' });
    expect(ok.ip).toBe('127.0.0.1');
    expect(ok.client).toMatchObject({ 'device-platform': 'Android', 'browser-name': 'Chrome WebView' });
    expect(failed).toMatchObject({ actor: 'user', user_id: arjun, status: 400, error_code: 'OTP_INVALID' });
    // Codes never reach the log.
    expect(JSON.stringify(signIns)).not.toContain(wrong);
    expect(JSON.stringify(signIns)).not.toContain(good);
    // The OTP requests are there too, with the number masked.
    const requests = await rowsOf('auth.otp_request', before);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.targets.mobile).toBe('+91******3212');
  });

  it('a sign-in attempt for an unknown number is anonymous and reaches no network', async () => {
    const before = await lastId();
    await t.post('/api/auth/loginWithOtp', { mobile: '+919000011122' });
    expect(await rowsOf('auth.otp_request', before)).toMatchObject([{ actor: 'anonymous', user_id: null, account_id: null, status: 200, targets: { mobile: '+91******1122' } }]);
  });

  it('a 403 refusal is logged under the route action, and under access.refused where the route has none', async () => {
    const arjunToken = (await t.signIn(ARJUN)).token;
    const c = await f.customer({ token: arjunToken, mobile: '+919812300077' });
    const before = await lastId();
    await t.db.query(`UPDATE users SET lock_access = lock_access || '{"lock": "0"}' WHERE mobile = $1`, [ARJUN]);
    try {
      const refused = await t.post('/api/device/lock', { customer_id: c.id }, { token: arjunToken });
      expect(refused.statusCode).toBe(403);
    } finally {
      await t.db.query(`UPDATE users SET lock_access = lock_access || '{"lock": "1"}' WHERE mobile = $1`, [ARJUN]);
    }
    expect(await rowsOf('device.lock', before)).toMatchObject([{ user_id: await userId(ARJUN), status: 403, error_code: 'ACCESS_DENIED', customer_id: c.id }]);
    // Total outstanding is off for the demo organisation: FEATURE_OFF (403) on a route without an action.
    expect((await t.get('/api/emi/getTotalOutStanding', { token: arjunToken })).statusCode).toBe(403);
    expect(await rowsOf('access.refused', before)).toMatchObject([{ user_id: await userId(ARJUN), status: 403, error_code: 'FEATURE_OFF', route: '/api/emi/getTotalOutStanding' }]);
  });

  it('a bad session (511) is logged as session.refused with nobody named', async () => {
    const before = await lastId();
    expect((await t.get('/api/customer/get_customers_keygen', { token: 'not.a.token' })).statusCode).toBe(511);
    expect(await rowsOf('session.refused', before)).toMatchObject([{ actor: 'anonymous', user_id: null, account_id: null, status: 511, error_code: 'SESSION_INVALID' }]);
  });

  it('a device command names the customer and the command; a scheduled one is logged when it is written', async () => {
    const { customer: c, phone } = await f.phone();
    await phone.close();
    const before = await lastId();
    const locked = await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    expect(locked.statusCode, locked.body).toBe(200);
    const rows = await rowsOf('device.lock', before);
    expect(rows).toMatchObject([{ actor: 'user', user_id: await userId(RAVI), status: 200, customer_id: c.id, targets: { customer_id: c.id, result: { id: locked.json().data.id } } }]);

    // A scheduled unlock: the row comes with the command, from the schedule runner (no request).
    const scheduled = await t.post('/api/device/schedule_lock_unlock', { customer_id: c.id, action: 'unlock', run_at: new Date(Date.now() + 60_000).toISOString() }, { token: ravi });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    await t.db.query(`UPDATE device_schedules SET run_at = now() - interval '1 second' WHERE id = $1`, [scheduled.json().data.id]);
    await t.db.query(`UPDATE customers SET lock_status = 1 WHERE id = $1`, [c.id]);
    await t.services.devices.runSchedules();
    const system = await rowsOf('device.unlock', before);
    expect(system).toMatchObject([{ actor: 'system', user_id: await userId(RAVI), status: null, customer_id: c.id, targets: { origin: 'schedule' } }]);
    expect(await rowsOf('device.schedule_lock_unlock', before)).toHaveLength(1);
  });

  it('an enrolment (a license key taken) names the new customer and the keys left', async () => {
    const before = await lastId();
    const c = await f.customer({ mobile: '+919812300055' });
    const keysLeft = (await t.db.query<{ balance: number }>('SELECT balance FROM license_balances b JOIN users u ON u.id = b.user_id WHERE u.mobile = $1 AND b.product_type = 0', [RAVI])).rows[0]!.balance;
    expect(await rowsOf('customer.enrol', before)).toMatchObject([{ user_id: await userId(RAVI), status: 200, customer_id: c.id, targets: { result: { keys_left: keysLeft } } }]);
  });

  it('a payment and its reversal each leave one row', async () => {
    const c = await f.customer({ mobile: '+919812300066' });
    const emi = (await t.get(`/api/emi/customer_emi_details?customer_id=${c.id}`, { token: ravi })).json().data as { instalments: Array<{ id: number }> };
    const before = await lastId();
    const paid = await t.post('/api/emi/update_emi_status', { customer_id: c.id, instalment_id: emi.instalments[0]!.id, method: 'cash' }, { token: ravi });
    expect(paid.statusCode, paid.body).toBe(200);
    const paymentId = paid.json().data.payment_id as number;
    expect(await rowsOf('emi.pay', before)).toMatchObject([{ user_id: await userId(RAVI), status: 200, customer_id: c.id, targets: { instalment_id: emi.instalments[0]!.id, method: 'cash', result: { payment_id: paymentId } } }]);
    const reversed = await t.post('/api/emi/reverse_payment', { payment_id: paymentId, reason: 'entered twice' }, { token: ravi });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(await rowsOf('emi.reverse', before)).toMatchObject([{ user_id: await userId(RAVI), status: 200, targets: { payment_id: paymentId, reason: 'entered twice' } }]);
    // A second reversal is refused, and that is logged too.
    expect((await t.post('/api/emi/reverse_payment', { payment_id: paymentId, reason: 'entered twice' }, { token: ravi })).statusCode).toBe(409);
    expect((await rowsOf('emi.reverse', before)).map((r) => r.error_code)).toEqual([null, 'ALREADY_REVERSED']);
  });
});

describe('append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const count = await lastId();
    expect(count).toBeGreaterThan(0);
    await expect(t.db.query(`UPDATE audit_log SET action = 'nothing' WHERE id = $1`, [count])).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM audit_log WHERE id = $1', [count])).rejects.toThrow(/append-only/);
    await expect(t.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect((await t.db.query<{ action: string }>('SELECT action FROM audit_log WHERE id = $1', [count])).rows[0]!.action).not.toBe('nothing');
  });
});

describe('who reads what', () => {
  it('a retailer reads its network, a mini-retailer its own entries, nobody another network', async () => {
    const sunita = (await t.signIn(SUNITA)).token;
    const meena = (await t.signIn(MEENA)).token;
    const [raviId, sunitaId, meenaId] = [await userId(RAVI), await userId(SUNITA), await userId(MEENA)];

    const mine = await list(ravi);
    const users = new Set(mine.items.map((i) => i.user_id));
    expect(users.has(raviId)).toBe(true);
    expect(users.has(sunitaId)).toBe(true); // Sunita is in Ravi's network
    expect(users.has(meenaId)).toBe(false);
    expect(mine.items.some((i) => i.action === 'emi.pay' && i.customer_name)).toBe(true);
    expect(mine.items.find((i) => i.action === 'auth.sign_in')?.device).toContain('Android');

    const hers = await list(sunita);
    expect(hers.items.length).toBeGreaterThan(0);
    expect(hers.items.every((i) => i.user_id === sunitaId)).toBe(true);

    // Sunita (a mini-retailer under Ravi) names one of Ravi's own customers: refused, and her log shows the
    // id she sent but not the name of a customer she may not see; Ravi's log names the customer.
    const parents = await f.customer({ mobile: '+919812300045' });
    const parentsName = (await t.db.query<{ n: string }>("SELECT first_name || ' ' || last_name AS n FROM customers WHERE id = $1", [parents.id])).rows[0]!.n;
    expect((await t.post('/api/device/lock', { customer_id: parents.id }, { token: sunita })).statusCode).toBe(404);
    const refused = (await list(sunita)).items.find((i) => i.action === 'device.lock' && i.customer_id === parents.id);
    expect(refused).toMatchObject({ user_id: sunitaId, status: 404, customer_name: null });
    expect((await list(ravi)).items.find((i) => i.id === refused!.id)?.customer_name).toBe(parentsName);

    // Meena names one of Ravi's customers: refused as unknown, logged in her network, with no name shown.
    const ravis = await f.customer({ mobile: '+919812300044' });
    expect((await t.post('/api/device/lock', { customer_id: ravis.id }, { token: meena })).statusCode).toBe(404);
    const other = await list(meena);
    expect(other.items.find((i) => i.action === 'device.lock' && i.status === 404)).toMatchObject({ user_id: meenaId, customer_id: ravis.id, customer_name: null });
    expect((await list(ravi)).items.some((i) => i.user_id === meenaId)).toBe(false);
    expect(other.items.length).toBeGreaterThan(0);
    expect(other.items.every((i) => i.user_id === meenaId)).toBe(true);
    const raviIds = new Set(mine.items.map((i) => i.id));
    expect(other.items.some((i) => raviIds.has(i.id))).toBe(false);
  });

  it('filters by one action, by a group, and by India dates; pages', async () => {
    const pays = await list(ravi, '&action=emi.pay');
    expect(pays.items.length).toBeGreaterThan(0);
    expect(pays.items.every((i) => i.action === 'emi.pay')).toBe(true);
    const emi = await list(ravi, '&action=emi.');
    expect(new Set(emi.items.map((i) => i.action))).toEqual(new Set(['emi.pay', 'emi.reverse']));
    expect((await list(ravi, '&from=2000-01-01&to=2000-01-31')).total).toBe(0);
    const today = new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
    expect((await list(ravi, `&from=${today}&to=${today}`)).total).toBe((await list(ravi)).total);
    const page = await t.get('/api/audit/list?limit=2&page=2', { token: ravi });
    expect(page.json().data).toMatchObject({ page: 2, limit: 2 });
    expect(page.json().data.items).toHaveLength(2);
    expect((await t.get('/api/audit/list?action=DROP%20TABLE', { token: ravi })).statusCode).toBe(400);
    expect((await t.get('/api/audit/list?from=2026-13-01', { token: ravi })).statusCode).toBe(400);
  });
});

describe('operator export', () => {
  it('prints CSV of the rows, by organisation and dates', async () => {
    const lines: string[] = [];
    expect(await runOperatorCommand(t.db, ['audit', '--org', '23'], (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toBe('id,at,actor,org_id,account_id,user_id,action,status,error_code,method,route,customer_id,targets,ip,user_agent,client');
    const total = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE org_id = 23')).rows[0]!.n;
    expect(lines).toHaveLength(total + 1);
    const actions = new Set(lines.slice(1).map((l) => l.split(',')[6]));
    for (const action of ['auth.sign_in', 'access.refused', 'device.lock', 'device.unlock', 'emi.pay', 'emi.reverse']) expect(actions.has(action), action).toBe(true);
    expect(lines.some((l) => l.includes('OTP_INVALID'))).toBe(true);
    // JSON cells are quoted, so every line reads back as the same 16 columns.
    for (const line of lines) expect(readCsvLine(line), line).toHaveLength(16);
    const pay = readCsvLine(lines.find((l) => l.includes(',emi.pay,'))!);
    expect(JSON.parse(pay[12]!)).toMatchObject({ method: 'cash', result: { payment_id: expect.any(Number) } });
    expect(JSON.parse(pay[15]!)).toMatchObject({ 'device-platform': 'Android' });

    const meena = await userId(MEENA);
    const other: string[] = [];
    await runOperatorCommand(t.db, ['audit', '--org', '46'], (line) => other.push(line));
    expect(other.slice(1).every((l) => l.split(',')[3] === '46')).toBe(true);
    expect(other.slice(1).some((l) => l.split(',')[5] === String(meena))).toBe(true);

    const none: string[] = [];
    await runOperatorCommand(t.db, ['audit', '--from', '2000-01-01', '--to', '2000-01-02'], (line) => none.push(line));
    expect(none).toHaveLength(1);
    const bad: string[] = [];
    expect(await runOperatorCommand(t.db, ['audit', '--from', '2026-02-31'], (line) => bad.push(line))).toBe(1);
    expect(bad[0]).toMatch(/usage: audit/);
  });

  it('an operator switch change is logged and reaches the retailer', async () => {
    const before = await lastId();
    expect(await runOperatorCommand(t.db, ['access', ARJUN, 'bulk_retailer=1'], () => undefined)).toBe(0);
    expect(await rowsOf('operator.access', before)).toMatchObject([{ actor: 'operator', user_id: await userId(ARJUN), targets: { user_access: { bulk_retailer: '1' } } }]);
  });

  it('an operator change whose row cannot be written is not made', async () => {
    const features = async () => (await t.db.query<{ features: Record<string, boolean> }>('SELECT features FROM organizations WHERE id = 23')).rows[0]!.features;
    const was = (await features()).outstanding_amount ?? false;
    await t.db.query(`CREATE OR REPLACE FUNCTION refuse_audit_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log full'; END $$`);
    await t.db.query('CREATE TRIGGER refuse_audit_insert BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit_insert()');
    try {
      await expect(runOperatorCommand(t.db, ['feature', '23', 'outstanding_amount', was ? 'off' : 'on'], () => undefined)).rejects.toThrow('audit log full');
      await expect(runOperatorCommand(t.db, ['device-policy', '23', 'offline_lock_days=9'], () => undefined)).rejects.toThrow('audit log full');
    } finally {
      await t.db.query('DROP TRIGGER refuse_audit_insert ON audit_log');
    }
    expect((await features()).outstanding_amount ?? false).toBe(was);
    expect((await t.db.query<{ d: number }>('SELECT offline_lock_days AS d FROM organizations WHERE id = 23')).rows[0]!.d).not.toBe(9);
  });

  it('defuses spreadsheet formulas and quotes separators', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(-5)).toBe('-5');
  });
});
