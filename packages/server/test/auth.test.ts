import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, RAVI, ARJUN, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  // Generous send limits here; the limits have their own file.
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000, otpResendAfterSeconds: 0 } });
});
afterAll(() => t.stop());

async function requestOtp(mobile: string, path = '/api/auth/loginWithOtp') {
  const res = await t.post(path, { mobile });
  expect(res.statusCode).toBe(200);
  return res.json().data.request_id as string;
}

describe('sign-in with OTP', () => {
  it('sends a six-digit OTP to a known number and signs in with it', async () => {
    const requestId = await requestOtp(RAVI);
    const otp = await t.latestOtp(RAVI);
    expect(otp).toMatch(/^\d{6}$/);
    const res = await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.message).toBe('Signed in successfully.');
    expect(body.data.user).toMatchObject({ mobile: RAVI, first_name: 'Ravi', mpin_set: false, org_id: 23 });
    expect(body.data.token.split('.')).toHaveLength(3);
    const profile = await t.get('/api/user/get-details', { token: body.data.token });
    expect(profile.json().data.shop_name).toBe('Ravi Mobiles');
  });

  it('answers an unknown number exactly like a known one, and sends nothing', async () => {
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sms_outbox');
    const known = await t.post('/api/auth/loginWithOtp', { mobile: ARJUN });
    const unknown = await t.post('/api/auth/loginWithOtp', { mobile: '+919000000001' });
    expect(unknown.statusCode).toBe(known.statusCode);
    const shape = (r: typeof known) => ({ ...r.json(), data: { ...r.json().data, request_id: 'x' } });
    expect(shape(unknown)).toEqual(shape(known));
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sms_outbox');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n + 1);
    // Whatever code is tried, the unknown number's request never signs in.
    const res = await t.post('/api/auth/verifyOtpAuth', { request_id: unknown.json().data.request_id, otp: '123456' });
    expect(res.json().code).toBe('OTP_INVALID');
  });

  it('refuses malformed numbers with a validation error naming the field', async () => {
    for (const mobile of ['9876543210', '+91987654321', '+915876543210', '']) {
      const res = await t.post('/api/auth/loginWithOtp', { mobile });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED', details: [{ field: 'mobile' }] });
    }
  });

  it('stops guessing after five wrong tries, even with the right code afterwards', async () => {
    const requestId = await requestOtp(RAVI);
    const otp = await t.latestOtp(RAVI);
    const wrong = otp === '000000' ? '111111' : '000000';
    const lefts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp: wrong });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('OTP_INVALID');
      lefts.push(res.json().attempts_left);
    }
    expect(lefts).toEqual([4, 3, 2, 1]);
    const fifth = await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp: wrong });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().code).toBe('OTP_ATTEMPTS_EXCEEDED');
    const right = await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp });
    expect(right.json().code).toBe('OTP_ATTEMPTS_EXCEEDED');
    // A resend does not give the guesser new tries.
    const resend = await t.post('/api/auth/resend-otp', { request_id: requestId });
    expect(resend.json().code).toBe('OTP_EXPIRED');
  });

  it('refuses an OTP used once already', async () => {
    const requestId = await requestOtp(RAVI);
    const otp = await t.latestOtp(RAVI);
    expect((await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp })).statusCode).toBe(200);
    const again = await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('OTP_EXPIRED');
  });

  it('refuses an OTP after its ten minutes', async () => {
    const requestId = await requestOtp(RAVI);
    const otp = await t.latestOtp(RAVI);
    const ttl = await t.db.query<{ seconds: number }>('SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM otp_requests WHERE id = $1', [requestId]);
    expect(ttl.rows[0]!.seconds).toBe(600);
    await t.db.query(`UPDATE otp_requests SET expires_at = now() - interval '1 second' WHERE id = $1`, [requestId]);
    const res = await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp });
    expect(res.json().code).toBe('OTP_EXPIRED');
  });

  it('binds an OTP to its request and its purpose', async () => {
    const first = await requestOtp(RAVI);
    const firstOtp = await t.latestOtp(RAVI);
    const second = await requestOtp(RAVI);
    const secondOtp = await t.latestOtp(RAVI);
    if (firstOtp !== secondOtp) {
      const crossed = await t.post('/api/auth/verifyOtpAuth', { request_id: second, otp: firstOtp });
      expect(crossed.json().code).toBe('OTP_INVALID');
    }
    // A LOGIN code cannot reset the MPIN.
    const reset = await t.post('/api/auth/reset-password', { request_id: first, otp: firstOtp, mpin: '4826' });
    expect(reset.json().code).toBe('OTP_EXPIRED');
    expect((await t.post('/api/auth/verifyOtpAuth', { request_id: first, otp: firstOtp })).statusCode).toBe(200);
  });

  it('makes the previous code useless after a resend', async () => {
    const requestId = await requestOtp(ARJUN);
    const oldOtp = await t.latestOtp(ARJUN);
    const resent = await t.post('/api/auth/resend-otp', { request_id: requestId });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data.request_id).toBe(requestId);
    const newOtp = await t.latestOtp(ARJUN);
    if (newOtp !== oldOtp) {
      expect((await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp: oldOtp })).json().code).toBe('OTP_INVALID');
    }
    expect((await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp: newOtp })).statusCode).toBe(200);
  });
});

describe('MPIN', () => {
  it('is set once after the first sign-in, stored hashed, and checked', async () => {
    const { token, userId } = await t.signIn(ARJUN);
    expect((await t.post('/api/auth/set-mpin', { mpin: '1234' }, { token })).json().code).toBe('MPIN_WEAK');
    expect((await t.post('/api/auth/set-mpin', { mpin: '12345' }, { token })).json().code).toBe('VALIDATION_FAILED');
    const set = await t.post('/api/auth/set-mpin', { mpin: '4826' }, { token });
    expect(set.statusCode).toBe(200);
    const stored = await t.db.query<{ mpin_hash: string }>('SELECT mpin_hash FROM users WHERE id = $1', [userId]);
    expect(stored.rows[0]!.mpin_hash).toMatch(/^scrypt\$/);
    expect(stored.rows[0]!.mpin_hash).not.toContain('4826');
    expect((await t.post('/api/auth/set-mpin', { mpin: '5937' }, { token })).json().code).toBe('MPIN_ALREADY_SET');
    expect((await t.post('/api/auth/verify-mpin', { mpin: '4826' }, { token })).statusCode).toBe(200);
    const wrong = await t.post('/api/auth/verify-mpin', { mpin: '4827' }, { token });
    expect(wrong.json()).toMatchObject({ code: 'MPIN_INVALID', attempts_left: 4 });
    expect((await t.get('/api/user/get-details', { token })).json().data.mpin_set).toBe(true);
  });

  it('ends every session after five wrong MPINs; an OTP sign-in gets back in', async () => {
    const phone = await t.signIn(RAVI);
    const tablet = await t.signIn(RAVI);
    await t.db.query('UPDATE users SET mpin_hash = NULL, mpin_failed = 0 WHERE id = $1', [phone.userId]);
    expect((await t.post('/api/auth/set-mpin', { mpin: '2580' }, { token: phone.token })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await t.post('/api/auth/verify-mpin', { mpin: '1111' }, { token: phone.token })).json().code).toBe('MPIN_INVALID');
    }
    const fifth = await t.post('/api/auth/verify-mpin', { mpin: '1111' }, { token: phone.token });
    expect(fifth.statusCode).toBe(511);
    expect(fifth.json().code).toBe('MPIN_LOCKED');
    expect((await t.get('/api/sessions/my-sessions', { token: phone.token })).statusCode).toBe(511);
    expect((await t.get('/api/sessions/my-sessions', { token: tablet.token })).statusCode).toBe(511);
    const again = await t.signIn(RAVI);
    expect((await t.post('/api/auth/verify-mpin', { mpin: '2580' }, { token: again.token })).statusCode).toBe(200);
  });

  it('is reset with a FORGOT_PASSWORD OTP', async () => {
    const { token, userId } = await t.signIn(RAVI);
    await t.db.query('UPDATE users SET mpin_hash = NULL WHERE id = $1', [userId]);
    await t.post('/api/auth/set-mpin', { mpin: '3691' }, { token });
    const requestId = await requestOtp(RAVI, '/api/auth/forgot-password');
    const otp = await t.latestOtp(RAVI);
    const sms = await t.db.query<{ purpose: string }>('SELECT purpose FROM sms_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [RAVI]);
    expect(sms.rows[0]!.purpose).toBe('FORGOT_PASSWORD');
    // The FORGOT_PASSWORD code does not sign anyone in.
    expect((await t.post('/api/auth/verifyOtpAuth', { request_id: requestId, otp })).json().code).toBe('OTP_EXPIRED');
    expect((await t.post('/api/auth/reset-password', { request_id: requestId, otp, mpin: '7410' })).statusCode).toBe(200);
    expect((await t.post('/api/auth/verify-mpin', { mpin: '3691' }, { token })).json().code).toBe('MPIN_INVALID');
    expect((await t.post('/api/auth/verify-mpin', { mpin: '7410' }, { token })).statusCode).toBe(200);
    expect((await t.post('/api/auth/reset-password', { request_id: requestId, otp, mpin: '7410' })).json().code).toBe('OTP_EXPIRED');
  });
});

describe('customer OTPs (UNINSTALL, BYPASS_CODE)', () => {
  it('go to the customer and only the retailer who asked can check them', async () => {
    const ravi = await t.signIn(RAVI);
    const arjun = await t.signIn(ARJUN);
    const customer = '+917000000042';
    const res = await t.post('/api/auth/send-otp-to-user', { mobile: customer, purpose: 'UNINSTALL' }, { token: ravi.token });
    expect(res.statusCode).toBe(200);
    const requestId = res.json().data.request_id as string;
    const otp = await t.latestOtp(customer);
    await expect(t.services.auth.consumeCustomerOtp(requestId, otp, 'UNINSTALL', arjun.userId)).rejects.toMatchObject({ code: 'OTP_EXPIRED' });
    await expect(t.services.auth.consumeCustomerOtp(requestId, otp, 'BYPASS_CODE', ravi.userId)).rejects.toMatchObject({ code: 'OTP_EXPIRED' });
    await expect(t.services.auth.consumeCustomerOtp(requestId, otp, 'UNINSTALL', ravi.userId)).resolves.toEqual({ mobile: customer });
    await expect(t.services.auth.consumeCustomerOtp(requestId, otp, 'UNINSTALL', ravi.userId)).rejects.toMatchObject({ code: 'OTP_EXPIRED' });
  });

  it('need a signed-in retailer and a customer purpose', async () => {
    expect((await t.post('/api/auth/send-otp-to-user', { mobile: '+917000000042', purpose: 'UNINSTALL' })).statusCode).toBe(511);
    const { token } = await t.signIn(RAVI);
    expect((await t.post('/api/auth/send-otp-to-user', { mobile: '+917000000042', purpose: 'LOGIN' }, { token })).statusCode).toBe(400);
  });
});
