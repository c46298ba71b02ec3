/** Shared steps: read OTPs from the development outbox and sign in through the screens, as a retailer would. */
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { withImeiCheckDigit } from '@kisht/domain/imei';

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

/** Enters (or, the first time, sets) the MPIN (2580 unless another journey set this retailer's own) when the console asks for it. */
export async function passMpin(page: Page, mpin = '2580') {
  const set = page.getByRole('heading', { name: en('auth.mpin.setTitle') });
  const enter = page.getByRole('heading', { name: en('auth.mpin.enterTitle') });
  const inside = page.getByRole('button', { name: en('nav.openMenu') });
  await expect(set.or(enter).or(inside)).toBeVisible();
  if (await set.isVisible()) {
    await page.getByLabel(en('auth.mpin.newLabel')).fill(mpin);
    await page.getByLabel(en('auth.mpin.confirmLabel')).fill(mpin);
    await page.getByRole('button', { name: en('auth.mpin.save') }).click();
  } else if (await enter.isVisible()) {
    await page.getByLabel(en('auth.mpin.label'), { exact: true }).fill(mpin);
    await page.getByRole('button', { name: en('auth.mpin.verify') }).click();
  }
  await expect(inside).toBeVisible();
}

/** A 3000 x 2000 JPEG made by the browser, the kind of photo a phone camera gives. */
export async function cameraPhoto(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 3000;
    canvas.height = 2000;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#3366cc';
    g.fillRect(0, 0, 3000, 2000);
    g.fillStyle = '#ffffff';
    g.beginPath();
    g.arc(1500, 1000, 500, 0, Math.PI * 2);
    g.fill();
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', 0.95));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  });
  return Buffer.from(base64, 'base64');
}

/** A 15-digit IMEI made from the clock, with its Luhn check digit (unique per run). */
export function imeiFromClock(): string {
  return withImeiCheckDigit(`35${String(Date.now()).slice(-12)}`);
}

/** The value shown right after a label (a summary grid's figure, a facts list's value) inside a named region. */
export async function valueAfter(page: Page, region: string, label: string): Promise<string> {
  const card = page.getByRole('region', { name: region });
  return (await card.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]').innerText()).trim();
}

/** The add-customer form's last step: a camera photo and a drawn signature. */
export async function addPhotoAndSignature(page: Page): Promise<void> {
  await page.getByRole('group', { name: en('addCustomer.photo') }).locator('input[type=file]:not([capture])').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await cameraPhoto(page) });
  await expect(page.getByRole('img', { name: en('photoInput.previewAlt', { label: en('addCustomer.photo') }) })).toBeVisible();
  const pad = page.locator('canvas').first();
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 0; i <= 20; i++) await page.mouse.move(box.x + 30 + i * 10, box.y + box.height / 2 + Math.sin(i / 2) * 30);
  await page.mouse.up();
}
