/**
 * The FCM HTTP v1 adapter against a local fake of Google's documented API (test/support/fake-fcm.ts): the OAuth
 * service-account flow, the message shape, retries with backoff and Retry-After, the error mapping, and the
 * configuration from the environment. Time and waits are injected, so nothing here sleeps.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt, decodeProtectedHeader, exportPKCS8, generateKeyPair } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backoffMs, createFcmPush, FCM_SCOPE, parseRetryAfter, type FcmOptions } from '../src/providers/push/fcm.ts';
import { DevOutboxPushProvider } from '../src/providers/push/dev-outbox.ts';
import { pushConfigProblems, pushProviderFromEnv, type PushMessage } from '../src/providers/push/push.ts';
import { startFakeFcm, type FakeFcm } from './support/fake-fcm.ts';

let keys: { privateKey: CryptoKey; publicKey: CryptoKey };
let pem: string;
let fake: FakeFcm;
let clock: number;
let waits: number[];
let logs: string[];

beforeAll(async () => {
  keys = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  pem = await exportPKCS8(keys.privateKey);
});

beforeEach(async () => {
  // Whole seconds, so an HTTP-date Retry-After (second precision) converts exactly.
  clock = Math.floor(Date.now() / 1000) * 1000;
  waits = [];
  logs = [];
  fake = await startFakeFcm({ publicKey: keys.publicKey, now: () => clock });
});

afterEach(async () => {
  await fake.close();
});

function client(overrides: Partial<FcmOptions> = {}) {
  return createFcmPush({
    projectId: fake.projectId,
    clientEmail: fake.clientEmail,
    privateKey: pem,
    tokenUri: fake.tokenUri,
    baseUrl: fake.baseUrl,
    now: () => clock,
    sleep: async (ms) => {
      waits.push(ms);
    },
    log: (message) => logs.push(message),
    ...overrides,
  });
}

const message = (token: string, extra: Partial<PushMessage> = {}): PushMessage => ({ token, data: { kind: 'lock', commandId: '42' }, ...extra });
const statusesFor = (token: string) => fake.sendLog.filter((s) => s.token === token).map((s) => s.status);

describe('OAuth 2.0 with the service account', () => {
  it('signs the assertion as Google documents and exchanges it through the jwt-bearer grant', async () => {
    const bodies: string[] = [];
    const push = client({
      fetch: async (url, init) => {
        if (String(url) === fake.tokenUri) bodies.push(String(init?.body));
        return fetch(url, init);
      },
      privateKeyId: 'key-1',
    });
    expect(await push.send(message('tok-a'))).toMatchObject({ ok: true });

    expect(bodies).toHaveLength(1);
    const form = new URLSearchParams(bodies[0]);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const assertion = form.get('assertion')!;
    expect(decodeProtectedHeader(assertion)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'key-1' });
    const claims = decodeJwt(assertion);
    expect(claims).toMatchObject({ iss: fake.clientEmail, scope: FCM_SCOPE, aud: fake.tokenUri, iat: clock / 1000 });
    expect(claims.exp! - claims.iat!).toBe(3600);
    // The fake verified the signature with the public key before issuing the token.
    expect(fake.tokenLog).toEqual([{ status: 200 }]);
  });

  it('fetches one access token, reuses it, and replaces it shortly before it expires', async () => {
    const push = client();
    for (const t of ['tok-1', 'tok-2', 'tok-3']) expect((await push.send(message(t))).ok).toBe(true);
    expect(fake.tokensIssued).toBe(1);
    const first = fake.accepted[0]!.bearer;
    expect(fake.accepted.map((a) => a.bearer)).toEqual([first, first, first]);

    clock += 50 * 60_000;
    expect((await push.send(message('tok-4'))).ok).toBe(true);
    expect(fake.tokensIssued).toBe(1);

    // 56 minutes after issue: the 3599 s token still has 3.5 minutes, inside our 5-minute margin.
    clock += 6 * 60_000;
    expect((await push.send(message('tok-5'))).ok).toBe(true);
    expect(fake.tokensIssued).toBe(2);
    expect(fake.accepted[4]!.bearer).not.toBe(first);
    // Never sent a token the fake would refuse.
    expect(fake.sendLog.every((s) => s.status === 200)).toBe(true);

    // And the fake does refuse the first one once it has expired.
    clock += 5 * 60_000;
    const res = await fetch(`${fake.baseUrl}/v1/projects/${fake.projectId}/messages:send`, {
      method: 'POST', headers: { authorization: `Bearer ${first}`, 'content-type': 'application/json' }, body: JSON.stringify({ message: message('tok-6') }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('shares one token request between sends made at the same time', async () => {
    const push = client();
    const results = await Promise.all(['c1', 'c2', 'c3', 'c4', 'c5'].map((t) => push.send(message(t))));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(fake.tokensIssued).toBe(1);
  });

  it('on a 401 fetches a new access token once and sends again, without waiting', async () => {
    const push = client();
    expect((await push.send(message('tok-r1'))).ok).toBe(true);
    fake.revokeAccessTokens();
    const result = await push.send(message('tok-r2'));
    expect(result.ok).toBe(true);
    expect(fake.tokensIssued).toBe(2);
    expect(fake.sendLog.map((s) => s.status)).toEqual([200, 401, 200]);
    expect(waits).toEqual([]);
  });

  it('gives up with auth when the fresh token is refused too', async () => {
    const push = client();
    fake.script('tok-401', { status: 401 }, { status: 401 });
    expect(await push.send(message('tok-401'))).toEqual({ ok: false, reason: 'auth', status: 401, retryable: false, code: 'UNAUTHENTICATED' });
    expect(statusesFor('tok-401')).toEqual([401, 401]);
    expect(fake.tokensIssued).toBe(2);
    expect(waits).toEqual([]);
  });

  it('answers auth without sending when the token endpoint refuses the assertion (another key)', async () => {
    const other = await generateKeyPair('RS256', { extractable: true });
    const push = client({ privateKey: await exportPKCS8(other.privateKey) });
    expect(await push.send(message('tok-k'))).toEqual({ ok: false, reason: 'auth', status: 400, retryable: false, code: 'invalid_grant' });
    expect(fake.tokenLog).toEqual([{ status: 400, error: 'invalid_grant' }]);
    expect(fake.sendLog).toEqual([]);
    expect(waits).toEqual([]);
  });

  it('retries the token endpoint when it is down', async () => {
    const push = client();
    fake.scriptToken({ status: 503 });
    expect((await push.send(message('tok-t'))).ok).toBe(true);
    expect(fake.tokenLog.map((t) => t.status)).toEqual([503, 200]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
  });

  it('refuses a private key that is not an RSA PEM, without echoing it', () => {
    expect(() => client({ privateKey: 'not-a-key-s3cr3t' })).toThrow(/not a PEM private key/);
    try {
      client({ privateKey: 'not-a-key-s3cr3t' });
    } catch (error) {
      expect(String(error)).not.toContain('s3cr3t');
    }
  });
});

describe('the message', () => {
  it('sends string data, the notification, the Android channel, priority, ttl and collapse key in the v1 shape', async () => {
    const push = client();
    const result = await push.send({
      token: 'tok-full', data: { kind: 'emi_due', amountPaise: '150000' }, notification: { title: 'EMI due', body: 'Pay ₹1,500 by 5 March' },
      channelId: 'emi_reminders', priority: 'normal', ttlSeconds: 86_400, collapseKey: 'emi',
    });
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0]!.message).toEqual({
      token: 'tok-full',
      data: { kind: 'emi_due', amountPaise: '150000' },
      notification: { title: 'EMI due', body: 'Pay ₹1,500 by 5 March' },
      android: { priority: 'normal', ttl: '86400s', collapse_key: 'emi', notification: { channel_id: 'emi_reminders' } },
    });
    expect(result).toEqual({ ok: true, id: fake.accepted[0]!.name });
    expect(result.ok && result.id).toMatch(/^projects\/kisht-fcm-test\/messages\/.+/);
  });

  it('sends a data-only message at high priority, with no Android notification even when a channel is named', async () => {
    const push = client();
    expect((await push.send(message('tok-data', { channelId: 'commands' }))).ok).toBe(true);
    expect(fake.accepted[0]!.message).toEqual({ token: 'tok-data', data: { kind: 'lock', commandId: '42' }, android: { priority: 'high' } });
  });

  it('refuses what FCM would refuse before spending a request on it', async () => {
    const push = client();
    const numeric = { token: 'tok-n', data: { amountPaise: 150000 } } as unknown as PushMessage;
    // 'rejected', not 'invalid': our payload is at fault, and the phone keeps its token.
    expect(await push.send(numeric)).toMatchObject({ ok: false, reason: 'rejected', status: 0, retryable: false, code: expect.stringContaining('data.amountPaise') });
    expect(await push.send(message('tok-n', { ttlSeconds: 2_419_201 }))).toMatchObject({ ok: false, reason: 'rejected', code: expect.stringContaining('ttlSeconds') });
    expect(await push.send(message('tok-n', { data: { from: 'x' } }))).toMatchObject({ ok: false, reason: 'rejected', code: expect.stringContaining('reserves') });
    expect(await push.send(message(''))).toMatchObject({ ok: false, reason: 'rejected', code: 'token: is required' });
    expect(fake.tokenLog).toEqual([]);
    expect(fake.sendLog).toEqual([]);
  });

  it('the fake refuses a non-string data value the way FCM documents it', async () => {
    const push = client();
    await push.send(message('tok-ok'));
    const res = await fetch(`${fake.baseUrl}/v1/projects/${fake.projectId}/messages:send`, {
      method: 'POST', headers: { authorization: `Bearer ${fake.accepted[0]!.bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: { token: 'tok-bad', data: { n: 12 } } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: 400, message: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12", status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.data[0].value', description: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12" }] }],
      },
    });
  });
});

describe('retries', () => {
  it('waits as long as a 429 Retry-After says (seconds), then sends', async () => {
    const push = client();
    fake.script('tok-429', { status: 429, retryAfter: '7' });
    expect((await push.send(message('tok-429'))).ok).toBe(true);
    expect(statusesFor('tok-429')).toEqual([429, 200]);
    expect(waits).toEqual([7000]);
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    const push = client();
    fake.script('tok-date', { status: 503, retryAfter: new Date(clock + 12_000).toUTCString() });
    expect((await push.send(message('tok-date'))).ok).toBe(true);
    expect(waits).toEqual([12_000]);
    expect(parseRetryAfter('soon', clock)).toBeNull();
    expect(parseRetryAfter(new Date(clock - 5000).toUTCString(), clock)).toBe(0);
  });

  it('backs off exponentially through 503, 500 and an HTML 502', async () => {
    const push = client();
    fake.script('tok-5xx', { status: 503 }, { status: 500 }, { status: 503 }, { status: 502, html: true });
    expect((await push.send(message('tok-5xx'))).ok).toBe(true);
    expect(statusesFor('tok-5xx')).toEqual([503, 500, 503, 502, 200]);
    expect(waits).toHaveLength(4);
    waits.forEach((ms, i) => {
      // At least 1 s, 2 s, 4 s, 8 s as FCM asks; jitter adds up to half again.
      expect(ms).toBeGreaterThanOrEqual(1000 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(1500 * 2 ** i);
    });
    for (let i = 1; i < waits.length; i += 1) expect(waits[i]).toBeGreaterThan(waits[i - 1]!);
  });

  it('never waits less than the backoff, even when Retry-After says less', async () => {
    const push = client({ random: () => 0 });
    fake.script('tok-short', { status: 503 }, { status: 503, retryAfter: '1' });
    expect((await push.send(message('tok-short'))).ok).toBe(true);
    expect(waits).toEqual([1000, 2000]);
  });

  it('caps the backoff at 60 s', () => {
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(3, () => 0.5)).toBe(5000);
    expect(backoffMs(7, () => 0)).toBe(60_000);
    expect(backoffMs(40, () => 0.99)).toBe(60_000);
  });

  it('gives up after maxAttempts with unavailable, retryable later', async () => {
    const push = client({ maxAttempts: 3 });
    fake.script('tok-down', { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    expect(await push.send(message('tok-down'))).toEqual({ ok: false, reason: 'unavailable', status: 503, retryable: true, code: 'UNAVAILABLE' });
    expect(statusesFor('tok-down')).toEqual([503, 503, 503]);
    expect(waits).toHaveLength(2);
    expect(fake.accepted).toEqual([]);
  });

  it('uses five attempts by default', async () => {
    const push = client();
    fake.script('tok-5', ...Array.from({ length: 6 }, () => ({ status: 500 })));
    expect(await push.send(message('tok-5'))).toMatchObject({ ok: false, reason: 'unavailable', status: 500, code: 'INTERNAL' });
    expect(statusesFor('tok-5')).toHaveLength(5);
    expect(waits).toHaveLength(4);
  });

  it('hands a Retry-After longer than a minute back to the caller instead of holding it', async () => {
    const push = client();
    fake.script('tok-long', { status: 429, retryAfter: '120' });
    expect(await push.send(message('tok-long'))).toEqual({ ok: false, reason: 'unavailable', status: 429, retryable: true, code: 'QUOTA_EXCEEDED', retryAfterMs: 120_000 });
    expect(statusesFor('tok-long')).toEqual([429]);
    expect(waits).toEqual([]);
  });

  it('retries network errors, and reports status 0 when FCM never answered', async () => {
    let failures = 2;
    const flaky: typeof fetch = async (url, init) => {
      if (String(url).includes('messages:send') && failures > 0) {
        failures -= 1;
        throw new TypeError('fetch failed');
      }
      return fetch(url, init);
    };
    expect((await client({ fetch: flaky }).send(message('tok-net'))).ok).toBe(true);
    expect(waits).toHaveLength(2);

    waits = [];
    const down: typeof fetch = async (url, init) => {
      if (String(url).includes('messages:send')) throw new TypeError('fetch failed');
      return fetch(url, init);
    };
    expect(await client({ fetch: down, maxAttempts: 4 }).send(message('tok-net'))).toEqual({ ok: false, reason: 'unavailable', status: 0, retryable: true });
    expect(waits).toHaveLength(3);
  });
});

describe('answers that are not retried', () => {
  it('404 UNREGISTERED: unregistered, so the caller drops the token', async () => {
    const push = client();
    fake.script('tok-gone', { status: 404 });
    expect(await push.send(message('tok-gone'))).toEqual({ ok: false, reason: 'unregistered', status: 404, retryable: false, code: 'UNREGISTERED' });
    expect(statusesFor('tok-gone')).toEqual([404]);
    expect(waits).toEqual([]);
  });

  it('400 blaming the token: invalid; 400 with UNREGISTERED: unregistered', async () => {
    const push = client();
    // Google's documented example: an FcmError INVALID_ARGUMENT, "not a valid FCM registration token".
    fake.script('tok-bad', { status: 400 });
    expect(await push.send(message('tok-bad'))).toEqual({ ok: false, reason: 'invalid', status: 400, retryable: false, code: 'INVALID_ARGUMENT' });
    // As captured from FCM: the FcmError beside a BadRequest on message.token.
    fake.script('tok-bad2', { status: 400, message: 'Request contains an invalid argument.', field: 'message.token' });
    expect(await push.send(message('tok-bad2'))).toMatchObject({ ok: false, reason: 'invalid', status: 400 });
    fake.script('tok-stale', { status: 400, errorCode: 'UNREGISTERED' });
    expect(await push.send(message('tok-stale'))).toEqual({ ok: false, reason: 'unregistered', status: 400, retryable: false, code: 'UNREGISTERED' });
    expect(statusesFor('tok-bad')).toEqual([400]);
    expect(statusesFor('tok-stale')).toEqual([400]);
    expect(waits).toEqual([]);
  });

  it('400 blaming the payload: rejected, so the token is kept', async () => {
    const push = client();
    // Too big for FCM (4096 bytes), which our own check leaves to FCM: the fake answers 400 on field "message".
    const big = await push.send(message('tok-big', { data: { blob: 'x'.repeat(5000) } }));
    expect(big).toEqual({ ok: false, reason: 'rejected', status: 400, retryable: false, code: 'INVALID_ARGUMENT' });
    // A bad value elsewhere: a BadRequest on that field and no FcmError.
    fake.script('tok-chan', { status: 400, errorCode: '', message: "Invalid value at 'message.android.notification.channel_id'", field: 'message.android.notification.channel_id' });
    expect(await push.send(message('tok-chan'))).toMatchObject({ ok: false, reason: 'rejected', status: 400, retryable: false });
    // No details at all (what FCM answered for an oversized payload in the wild).
    fake.script('tok-bare', { status: 400, errorCode: '', message: 'Request contains an invalid argument.' });
    expect(await push.send(message('tok-bare'))).toMatchObject({ ok: false, reason: 'rejected', status: 400 });
    expect(statusesFor('tok-big')).toEqual([400]);
    expect(waits).toEqual([]);
  });

  it('403 SENDER_ID_MISMATCH: auth (a wrong project would otherwise wipe every token)', async () => {
    const push = client();
    fake.script('tok-other-app', { status: 403 });
    expect(await push.send(message('tok-other-app'))).toEqual({ ok: false, reason: 'auth', status: 403, retryable: false, code: 'SENDER_ID_MISMATCH' });
    expect(statusesFor('tok-other-app')).toEqual([403]);
  });

  it('a project the credentials do not cover: 403 PERMISSION_DENIED, auth', async () => {
    const push = client({ projectId: 'another-project' });
    expect(await push.send(message('tok-p'))).toEqual({ ok: false, reason: 'auth', status: 403, retryable: false, code: 'PERMISSION_DENIED' });
    expect(fake.sendLog).toEqual([{ token: null, status: 403 }]);
  });
});

it('never logs a registration token, an access token or the private key', async () => {
  const push = client();
  const token = 'dKq3-registration-token-SECRET';
  fake.script(token, { status: 429, retryAfter: '2' }, { status: 503 }, { status: 401 });
  expect((await push.send(message(token))).ok).toBe(true);
  fake.script(token, { status: 404 });
  await push.send(message(token));
  expect(logs.length).toBeGreaterThanOrEqual(3);
  const text = logs.join('\n');
  expect(text).not.toContain('SECRET');
  for (const a of fake.accepted) expect(text).not.toContain(a.bearer);
  expect(text).not.toContain('PRIVATE KEY');
  expect(text).not.toContain(pem.split('\n')[1]!.slice(0, 20));
});

describe('the development outbox', () => {
  it('keeps what was sent, newest first, and refuses what FCM would refuse', async () => {
    const outbox = new DevOutboxPushProvider(2);
    const sent = message('phone-1');
    expect(await outbox.send(sent)).toEqual({ ok: true, id: 'dev-outbox/1' });
    sent.data.kind = 'changed afterwards';
    await outbox.send(message('phone-2'));
    await outbox.send(message('phone-1', { data: { kind: 'unlock' } }));
    expect(outbox.latest().map((p) => p.id)).toEqual(['dev-outbox/3', 'dev-outbox/2']);
    expect(outbox.latest('phone-1').map((p) => p.message.data.kind)).toEqual(['unlock']);
    expect(await outbox.send({ token: 'phone-1', data: { n: 1 } } as unknown as PushMessage)).toMatchObject({ ok: false, reason: 'rejected' });
    expect(outbox.latest()).toHaveLength(2);
  });
});

describe('pushProviderFromEnv', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'kisht-push-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the development outbox when nothing is set', () => {
    const provider = pushProviderFromEnv({});
    expect(provider).toBeInstanceOf(DevOutboxPushProvider);
    expect(provider.name).toBe('dev-outbox');
    expect(pushProviderFromEnv({ PUSH_PROVIDER: 'dev-outbox' }).name).toBe('dev-outbox');
  });

  it('names every missing variable when PUSH_PROVIDER=fcm is incomplete', () => {
    expect(() => pushProviderFromEnv({ PUSH_PROVIDER: 'fcm' })).toThrow(/FCM_PROJECT_ID: is required[\s\S]*FCM_CLIENT_EMAIL: is required[\s\S]*FCM_PRIVATE_KEY: is required/);
    expect(pushConfigProblems({ PUSH_PROVIDER: 'fcm', FCM_PROJECT_ID: 'kisht-prod', FCM_PRIVATE_KEY: pem })).toEqual([
      'FCM_CLIENT_EMAIL: is required when PUSH_PROVIDER=fcm (or FCM_SERVICE_ACCOUNT_FILE)',
    ]);
  });

  it('refuses an unknown provider, stray FCM variables, a bad key, a bad project id and a missing file', () => {
    expect(() => pushProviderFromEnv({ PUSH_PROVIDER: 'apns' })).toThrow('PUSH_PROVIDER: must be one of dev-outbox, fcm (got "apns")');
    expect(() => pushProviderFromEnv({ FCM_PROJECT_ID: 'kisht-prod' })).toThrow('PUSH_PROVIDER: set it to fcm to use FCM_PROJECT_ID');
    const badKey = () => pushProviderFromEnv({ PUSH_PROVIDER: 'fcm', FCM_PROJECT_ID: 'kisht-prod', FCM_CLIENT_EMAIL: 'a@b.iam.gserviceaccount.com', FCM_PRIVATE_KEY: 'hunter2-key' });
    expect(badKey).toThrow('FCM_PRIVATE_KEY: is not a PEM RSA private key');
    expect(badKey).not.toThrow(/hunter2/);
    expect(pushConfigProblems({ PUSH_PROVIDER: 'fcm', FCM_PROJECT_ID: 'Kisht Prod', FCM_CLIENT_EMAIL: 'a@b.c', FCM_PRIVATE_KEY: pem })).toEqual([
      'FCM_PROJECT_ID: must be a Firebase project id (6 to 30 lowercase letters, digits and hyphens)',
    ]);
    expect(pushConfigProblems({ PUSH_PROVIDER: 'fcm', FCM_SERVICE_ACCOUNT_FILE: path.join(dir, 'missing.json') })[0]).toMatch(/^FCM_SERVICE_ACCOUNT_FILE: no such file/);
  });

  it("builds the FCM provider from Google's service-account file, which then sends", async () => {
    const file = path.join(dir, 'service-account.json');
    writeFileSync(file, JSON.stringify({
      type: 'service_account', project_id: fake.projectId, private_key_id: 'abc123', private_key: pem, client_email: fake.clientEmail,
      client_id: '1234567890', token_uri: fake.tokenUri,
    }));
    const headers: unknown[] = [];
    const provider = pushProviderFromEnv({ PUSH_PROVIDER: 'fcm', FCM_SERVICE_ACCOUNT_FILE: file, FCM_URL: fake.baseUrl }, {
      fetch: async (url, init) => {
        if (String(url) === fake.tokenUri) headers.push(decodeProtectedHeader(new URLSearchParams(String(init?.body)).get('assertion')!));
        return fetch(url, init);
      },
    });
    expect(provider.name).toBe('fcm');
    // The fake's clock is ours; the provider uses the real one.
    clock = Date.now();
    expect((await provider.send(message('tok-env'))).ok).toBe(true);
    expect(headers).toEqual([{ alg: 'RS256', typ: 'JWT', kid: 'abc123' }]);
  });

  it('takes the three variables, with the PEM line breaks written as \\n', async () => {
    const provider = pushProviderFromEnv({
      PUSH_PROVIDER: 'fcm', FCM_PROJECT_ID: fake.projectId, FCM_CLIENT_EMAIL: fake.clientEmail, FCM_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
      FCM_TOKEN_URI: fake.tokenUri, FCM_URL: fake.baseUrl,
    });
    clock = Date.now();
    expect((await provider.send(message('tok-env2'))).ok).toBe(true);
    expect(fake.accepted.map((a) => a.message.token)).toEqual(['tok-env2']);
  });
});
