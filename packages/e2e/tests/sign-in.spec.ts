import { expect, test, type Page } from '@playwright/test';
import { en, signInWithOtp, text } from './fixtures.ts';

test('a new retailer signs in with an OTP, sets an MPIN, comes back with it, reads Hindi and is signed out from another phone', async ({ page, browser, request }) => {
  // Arjun has never signed in: no MPIN yet.
  await signInWithOtp(page, request, '9876543212');
  await expect(page.getByRole('heading', { name: en('auth.mpin.setTitle') })).toBeVisible();
  await page.getByLabel(en('auth.mpin.newLabel')).fill('4826');
  await page.getByLabel(en('auth.mpin.confirmLabel')).fill('4826');
  await page.getByRole('button', { name: en('auth.mpin.save') }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(en('dashboard.welcome', { name: 'Arjun' }))).toBeVisible();

  // Quick re-entry: a reload asks for the MPIN, not an OTP.
  await page.reload();
  await expect(page).toHaveURL(/\/m-pin/);
  await expect(page.getByRole('heading', { name: en('auth.mpin.enterTitle') })).toBeVisible();
  await page.getByLabel(en('auth.mpin.label'), { exact: true }).fill('4826');
  await page.getByRole('button', { name: en('auth.mpin.verify') }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  // Switch the language to Hindi from the menu.
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: en('nav.language') }).click();
  await page.getByRole('radio', { name: /हिन्दी/ }).or(page.getByRole('button', { name: /हिन्दी/ })).first().click();
  await expect(page.getByRole('heading', { name: text('hn', 'language.title') })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', /^hi/);

  // A second phone signs in as the same retailer and ends every other session.
  const other = await browser.newContext();
  const second = await other.newPage();
  await signInWithOtp(second, request, '9876543212');
  await expect(second).toHaveURL(/\/dashboard/);
  await second.getByRole('button', { name: en('nav.openMenu') }).click();
  await second.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: en('nav.sessions') }).click();
  await expect(second.getByText(en('sessions.thisDevice'))).toBeVisible();
  await second.getByRole('button', { name: en('sessions.endAllOthers') }).click();
  await second.getByRole('dialog').getByRole('button', { name: en('sessions.endAllOthers') }).click();
  await expect(second.getByText(en('sessions.noOthers'))).toBeVisible();
  await other.close();

  // The first phone, still in Hindi, opens its sessions: the call answers 511, local storage is
  // cleared and it lands on /login.
  await page.getByRole('button', { name: text('hn', 'nav.openMenu') }).click();
  await page.getByRole('navigation', { name: text('hn', 'nav.menu') }).getByRole('link', { name: text('hn', 'nav.sessions') }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('the login form says what is wrong before anything is sent', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: en('auth.login.sendOtp') }).click();
  await expect(page.getByText(en('common.required'))).toBeVisible();
  await page.getByLabel(en('auth.login.mobileLabel')).fill('12345');
  await page.getByRole('button', { name: en('auth.login.sendOtp') }).click();
  await expect(page.getByText(en('auth.login.invalidMobile'))).toBeVisible();
});

test('a wrong OTP shows the tries left', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByLabel(en('auth.login.mobileLabel')).fill('9876543211');
  await page.getByRole('button', { name: en('auth.login.sendOtp') }).click();
  await expect(page.getByRole('heading', { name: en('auth.otp.title') })).toBeVisible();
  const res = await request.get('/api/dev/outbox?to=%2B919876543211&limit=1');
  const real = /\b(\d{6})\b/.exec(((await res.json()) as { data: Array<{ body: string }> }).data[0]!.body)![1]!;
  await page.getByLabel(en('auth.otp.label')).fill(real === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: en('auth.otp.verify') }).click();
  await expect(page.getByText(en('auth.attemptsLeft', { attempts: '4' }))).toBeVisible();
});

test('the request-an-account form loads from the login screen when asked for and keeps what was typed when closed', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: en('auth.login.requestAccount') }).click();
  const dialog = page.getByRole('dialog', { name: en('auth.signup.title') });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(en('auth.signup.shop_name')).fill('Nidhi Mobiles');
  await dialog.getByRole('button', { name: en('common.cancel') }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: en('auth.login.requestAccount') }).click();
  await expect(dialog.getByLabel(en('auth.signup.shop_name'))).toHaveValue('Nidhi Mobiles');
});

test('the sign-in screen comes drawn in the page, in the language of the cookie, before any script has run', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/privacy-policy');
  await page.evaluate(() => {
    document.cookie = 'i18next=tm; path=/';
  });
  // No script at all: what shows is the HTML and its CSS alone.
  await page.route('**/*.js', (route) => route.abort());
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: text('tm', 'auth.login.title') })).toBeVisible();
  await expect(page.getByText(text('tm', 'auth.login.subtitle'))).toBeVisible();
  await expect(page.getByRole('button', { name: text('tm', 'auth.login.sendOtp') })).toBeVisible();
  // Nothing can be typed into it until the app has taken it over.
  await expect(page.locator('[data-prerendered="tm"]')).toHaveAttribute('inert', '');
  // The organisation's name and colours are there already, as the app will show them.
  const drawnName = await page.locator('.auth-brand__name').innerText();
  expect(drawnName).not.toMatch(/%|^$/);
  const colourOf = () => page.getByRole('button', { name: text('tm', 'auth.login.sendOtp') }).evaluate((b) => getComputedStyle(b).backgroundColor);
  const drawnColour = await colourOf();

  // With the scripts, the app's own screen takes its place and works. Its first render, before the organisation's
  // config has answered (held back here), shows the same name: nothing flickers.
  await page.unroute('**/*.js');
  let configAnswered = false;
  await page.route('**/api/organizations/get_org_app_config', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    configAnswered = true;
    await route.continue();
  });
  await page.reload();
  await expect(page.locator('[data-prerendered]')).toHaveCount(0);
  const nameBeforeConfig = await page.locator('.auth-brand__name').innerText();
  expect(configAnswered).toBe(false);
  expect(nameBeforeConfig).toBe(drawnName);
  await expect.poll(() => configAnswered).toBe(true);
  await expect(page.locator('.auth-brand__name')).toHaveText(drawnName);
  expect(await colourOf()).toBe(drawnColour);
  await page.getByLabel(text('tm', 'auth.login.mobileLabel')).fill('12345');
  await page.getByRole('button', { name: text('tm', 'auth.login.sendOtp') }).click();
  await expect(page.getByText(text('tm', 'auth.login.invalidMobile'))).toBeVisible();
});

/** Without scripts, /login comes drawn in English but the boot script keeps it behind the splash. */
async function expectSplashOverDrawnPage(page: Page) {
  await page.route('**/*.js', (route) => route.abort());
  await page.goto('/login');
  await expect(page.locator('[data-prerendered="en"]')).toBeAttached();
  await expect(page.getByRole('heading', { name: en('auth.login.title') })).toBeHidden();
  await expect(page.locator('#boot-splash')).toBeVisible();
}

test('a drawn sign-in screen in another language than the stored one, or with a session stored, waits behind the splash', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/privacy-policy');
  // Hindi chosen on this phone before (storage, no cookie): the page comes drawn in English, which must not flash.
  await page.evaluate(() => {
    document.cookie = 'i18next=; max-age=0; path=/';
    localStorage.setItem('language', 'hn');
  });
  await expectSplashOverDrawnPage(page);

  await page.unroute('**/*.js');
  await page.reload();
  await expect(page.getByRole('heading', { name: text('hn', 'auth.login.title') })).toBeVisible();
  await expect(page.locator('#boot-splash')).toHaveCount(0);

  // A session stored: the app will go past the sign-in screen, so the drawn one does not show either.
  await page.evaluate(() => {
    localStorage.setItem('language', 'en');
    document.cookie = 'i18next=en; path=/';
    localStorage.setItem('token', 'x.y.z');
  });
  await expectSplashOverDrawnPage(page);
});
