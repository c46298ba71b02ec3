import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { en, signInWithOtp } from './fixtures.ts';

test('the service worker makes the app ready to work offline', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByText(en('pwa.offlineReady'))).toBeVisible({ timeout: 20_000 });
});

test('public pages open without signing in, and pricing asks to contact the admin where no price exists', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: en('pricing.title') })).toBeVisible();
  await expect(page.getByText(en('pricing.contactAdmin')).first()).toBeVisible();
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { name: en('privacy.title') })).toBeVisible();
  await page.goto('/refund-policy');
  await expect(page.getByRole('heading', { name: en('refund.title') })).toBeVisible();
});

test('signed-in screens: unknown addresses show Not found; help and support open', async ({ page, request }) => {
  await signInWithOtp(page, request, '9812345678');
  await expect(page.getByRole('heading', { name: en('auth.mpin.setTitle') })).toBeVisible();
  await page.getByLabel(en('auth.mpin.newLabel')).fill('3691');
  await page.getByLabel(en('auth.mpin.confirmLabel')).fill('3691');
  await page.getByRole('button', { name: en('auth.mpin.save') }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Clicking through the app keeps the page (and the MPIN unlock) alive.
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: en('nav.support') }).click();
  await expect(page.getByRole('heading', { name: en('support.title') })).toBeVisible();
  await page.evaluate(() => {
    window.history.pushState({}, '', '/no-such-screen');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: en('notFound.title') })).toBeVisible();
});

test('signed out visitors are sent to /login from signed-in screens', async ({ page }) => {
  await page.goto('/sessions');
  await expect(page).toHaveURL(/\/login$/);
});

test('a screen that cannot load shows the generic error screen with its message', async ({ page }) => {
  // The pricing screen's code fails to download (a dropped connection mid-navigation).
  await page.route(/\/assets\/pricing-screen-[^/]+\.js$/, (route) => route.abort('connectionreset'));
  await page.goto('/login');
  await page.getByRole('link', { name: en('nav.pricing') }).click();
  await expect(page.getByRole('heading', { name: en('routeError.title') })).toBeVisible();
});

test('a new deploy offers Reload, which activates the new version and reloads', async ({ page }) => {
  // The build the server serves: E2E_CONSOLE_DIST when set (see playwright.config.ts), else the console's dist.
  const sw = process.env.E2E_CONSOLE_DIST ? `${process.env.E2E_CONSOLE_DIST}/sw.js` : new URL('../../console/dist/sw.js', import.meta.url);
  const original = readFileSync(sw, 'utf8');
  await page.goto('/login');
  await expect(page.getByText(en('pwa.offlineReady'))).toBeVisible({ timeout: 20_000 });
  try {
    // A new deploy: the service worker script changes on the server.
    writeFileSync(sw, `${original}\n// deploy ${Date.now()}\n`);
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    await expect(page.getByText(en('pwa.needRefresh'))).toBeVisible({ timeout: 20_000 });
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: en('pwa.reload') }).click();
    await reloaded;
    await expect(page.getByText(en('pwa.needRefresh'))).toBeHidden();
    // The worker now in control is the new one.
    const active = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting === null);
    expect(active).toBe(true);
  } finally {
    writeFileSync(sw, original);
  }
});
