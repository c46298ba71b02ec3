/** Shared steps: read OTPs from the development outbox and sign in through the screens, as a retailer would. */
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

type Dict = { [key: string]: string | Dict };

/** A string of a language's dictionary, so tests follow the words the app really shows. */
export function text(lng: string, key: string, vars: Record<string, string> = {}): string {
  const dict = JSON.parse(readFileSync(new URL(`../../locales/${lng}.json`, import.meta.url), 'utf8')) as Dict;
  let node: string | Dict | undefined = dict;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no ${lng} text for ${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => vars[name] ?? '');
}
export const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);

export async function latestOtp(request: APIRequestContext, mobile: string, after = 0): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(mobile)}&limit=1`);
    const body = (await res.json()) as { data: Array<{ id: number; body: string }> };
    const message = body.data[0];
    if (message && message.id > after) return /\b(\d{6})\b/.exec(message.body)![1]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no OTP for ${mobile}`);
}

export async function lastOutboxId(request: APIRequestContext, mobile: string): Promise<number> {
  const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(mobile)}&limit=1`);
  return ((await res.json()) as { data: Array<{ id: number }> }).data[0]?.id ?? 0;
}

/** Mobile number -> Send OTP -> OTP from the outbox -> Verify. Leaves the page on the MPIN or dashboard screen. */
export async function signInWithOtp(page: Page, request: APIRequestContext, tenDigits: string) {
  const mobile = `+91${tenDigits}`;
  const before = await lastOutboxId(request, mobile);
  await page.goto('/login');
  await page.getByLabel(en('auth.login.mobileLabel')).fill(tenDigits);
  await page.getByRole('button', { name: en('auth.login.sendOtp') }).click();
  await expect(page.getByRole('heading', { name: en('auth.otp.title') })).toBeVisible();
  await page.getByLabel(en('auth.otp.label')).fill(await latestOtp(request, mobile, before));
  await page.getByRole('button', { name: en('auth.otp.verify') }).click();
}
