/**
 * Every screen of the console on small phones, with long real-world data, in all ten languages.
 *
 * The list of screens comes from the console's route table (packages/console/src/app/router.tsx and
 * shared/routes.ts, see console-screens.ts): a screen added there joins this test on its own, and a route with
 * a parameter fails until EXAMPLES in console-screens.ts says which address to open. The test fails when:
 *  - the page is wider than the phone (document scrollWidth > viewport width);
 *  - a box scrolls sideways (a table wider than the phone; swipeable filter chips, .chips, excepted) or a control
 *    lies past the side of the screen;
 *  - a fixed or sticky layer (app bar, bottom tabs, toast, banner) sits over an enabled control, checked with
 *    elementFromPoint at the centre of every visible enabled button, link and field once it is scrolled into view;
 *  - axe reports a serious or critical violation.
 * Matrix: every screen at 360 px in all ten languages (overflow, overlays and axe), and again at 320 px in the
 * same languages (overflow and overlays: axe's rules do not depend on the width). Each language signs in once
 * (the MPIN screen) and moves between screens inside the app, as a retailer would. Four languages are checked at
 * once, each in its own browser context (LAYOUT_PARALLEL): one language alone leaves the machine idle while a screen
 * settles.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ROUTES } from '../../console/src/shared/routes.ts';
import { addLongAntihackingSales, addLongCampaign, addLongFamilyCare, addLongWarrantySales, createHeldPayment, createLongData, MPIN, RETAILER, TAMIL_NAME, settle, signedInScreens, trackRequests, navigateInApp, setPaymentGateway, uploadPaymentQr, LANGUAGES, TAMIL_OFFER, type Data, type Lng } from './console-screens.ts';
import { APP_SECRET, BASE_URL, GATEWAY_PORT } from '../playwright.config.ts';
import { en, latestOtp, passMpin, text } from './fixtures.ts';
import { randomImei } from '@kisht/agent/retailer-api';

const WIDTHS = [360, 320] as const;

/** A string in the language, or in English where the dictionary has none yet (as the console itself falls back). */
function say(lng: Lng, key: string, vars?: Record<string, string>): string {
  try {
    return text(lng, key, vars);
  } catch {
    return en(key, vars);
  }
}
const HEIGHT = 740;

interface Problem {
  lng: Lng;
  width: number;
  screen: string;
  kind: MeasuredKind | 'axe' | 'not-ready';
  detail: string;
}

type MeasuredKind = 'overflow' | 'sideways' | 'offscreen' | 'covered';

/**
 * Overflow and covered controls, measured in the page; `busy` when a spinner or skeleton was up while measuring (a
 * live update from another language reloading the screen), so the caller measures again once it has settled.
 */
function measure(width: number): { busy: boolean; found: Array<{ kind: MeasuredKind; detail: string }> } {
  const found: Array<{ kind: MeasuredKind; detail: string }> = [];
  const loading = () => document.querySelector('.spinner, .spinner-overlay, .skeleton') !== null;
  const busyBefore = loading();
  const describe = (el: Element) => {
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const label = (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${cls}${label ? ` "${label}"` : ''}`;
  };
  // Against the phone's width, not window.innerWidth: a mobile browser zooms out to fit a page that is too
  // wide, and its layout viewport grows with the page.
  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth > width) {
    // The innermost elements that stick out, so the report says what to fix.
    const inFixedLayer = (el: Element) => {
      for (let node: Element | null = el; node; node = node.parentElement) if (getComputedStyle(node).position === 'fixed') return true;
      return false;
    };
    const wide = [...document.querySelectorAll('body *')].filter((el) => !el.closest('.chips, .visually-hidden') && !inFixedLayer(el) && el.getBoundingClientRect().right > width + 0.5 && ![...el.children].some((c) => c.getBoundingClientRect().right > width + 0.5));
    // Text can stick out of a box that itself fits.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node && wide.length < 3; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('.chips, .visually-hidden') || inFixedLayer(parent)) continue;
      let clipped = false;
      for (let box: Element | null = parent; box && box !== document.body && !clipped; box = box.parentElement) clipped = getComputedStyle(box).overflowX !== 'visible';
      if (clipped) continue;
      range.selectNodeContents(node);
      if (range.getBoundingClientRect().right > width + 0.5) wide.push(parent);
    }
    found.push({ kind: 'overflow', detail: `scrollWidth ${scrollWidth} > ${width}: ${wide.slice(0, 3).map(describe).join(', ')}` });
  }
  // A box that scrolls sideways hides columns or controls past the phone's edge (filter chips may scroll: they
  // are marked .chips and each is reachable with a swipe).
  for (const el of document.querySelectorAll<HTMLElement>('body *')) {
    if (el.scrollWidth <= el.clientWidth + 1 || el.closest('.chips')) continue;
    const overflowX = getComputedStyle(el).overflowX;
    if (overflowX === 'auto' || overflowX === 'scroll') found.push({ kind: 'sideways', detail: `${describe(el)} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})` });
  }
  const overlayOf = (el: Element | null): Element | null => {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      const position = getComputedStyle(node).position;
      if (position === 'fixed' || position === 'sticky') return node;
    }
    return null;
  };
  const controls = [...document.querySelectorAll<HTMLElement>('button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])')];
  // Behind an open modal dialog nothing can be used: only the dialog's own controls count.
  const modal = [...document.querySelectorAll('[aria-modal="true"]')].pop() ?? null;
  // First, before anything scrolls: controls past the side of the screen (in a box that scrolls sideways).
  const offscreen = new Set<Element>();
  for (const el of controls) {
    const rect = el.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1 || (modal && !modal.contains(el)) || el.closest('.chips')) continue;
    const x = rect.left + rect.width / 2;
    if (x > width || x < 0) {
      offscreen.add(el);
      found.push({ kind: 'offscreen', detail: `${describe(el)} is past the side of the screen` });
    }
  }
  const startX = window.scrollX;
  const startY = window.scrollY;
  for (const el of controls) {
    if (modal && !modal.contains(el)) continue;
    if ((el as HTMLButtonElement).disabled || el.closest('[inert], [aria-hidden="true"], fieldset:disabled')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
    let rect = el.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) continue;
    if (offscreen.has(el)) continue;
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    rect = el.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    if (!hit || el.contains(hit) || hit.contains(el)) continue;
    const layer = overlayOf(hit);
    // Only a fixed or sticky layer that is not the control's own counts (a label over its input does not).
    if (layer && !layer.contains(el)) found.push({ kind: 'covered', detail: `${describe(el)} under ${describe(layer)}` });
  }
  window.scrollTo(startX, startY);
  return { busy: busyBefore || loading(), found };
}


const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const run = await axe.run(document, { resultTypes: ['violations'] });
    return run.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}) at ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(' ')}`);
  });
  return results;
}

class Checker {
  readonly problems: Problem[] = [];
  constructor(private readonly page: Page, private readonly lng: Lng, private readonly inflight: () => number) {}

  /**
   * Checks the current screen at every width; axe at the first. Languages are checked side by side, so a live update
   * caused by another language (a sale, a payment) can refresh a list while it is measured: a screen found loading
   * again after its measure is measured again once it has settled.
   */
  async check(screen: string) {
    for (let attempt = 1; ; attempt++) {
      const found: Problem[] = [];
      let busy = false;
      for (const [i, width] of WIDTHS.entries()) {
        if (this.page.viewportSize()?.width !== width) {
          await this.page.setViewportSize({ width, height: HEIGHT });
          await this.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        }
        const measured = await this.page.evaluate(measure, width);
        busy ||= measured.busy;
        for (const p of measured.found) found.push({ lng: this.lng, width, screen, ...p });
        if (i === 0) for (const v of await axeViolations(this.page)) found.push({ lng: this.lng, width, screen, kind: 'axe', detail: v });
      }
      await this.page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
      const reloaded = busy || this.inflight() > 0 || (await this.page.locator('.skeleton, .spinner').count()) > 0;
      if (!reloaded || attempt === 3) {
        this.problems.push(...found);
        return;
      }
      await settle(this.page, this.inflight);
    }
  }

  notReady(screen: string) {
    this.problems.push({ lng: this.lng, width: WIDTHS[0], screen, kind: 'not-ready', detail: 'still loading after 15 s' });
  }
}

let data: Data;
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;
let pendingOtp: string;
const allProblems: Problem[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  data = await createLongData(BASE_URL, APP_SECRET);
  // Anti-hacking plans sold to the long-named buyers, one cancelled, in the customer list's anti-hacking list.
  await addLongAntihackingSales(BASE_URL, APP_SECRET, data);
  // Extended warranties for the long-named customers: one in cover, one waiting, one cancelled.
  data.warranty = await addLongWarrantySales(BASE_URL, APP_SECRET, data);
  // A child's phone on family care: its rules (long package names, four bedtime windows, a lock) and a week's usage chart.
  data.familycare = await addLongFamilyCare(BASE_URL, APP_SECRET);
  // An offer with a long Tamil title and message, shown and opened on one phone, skipped on another.
  data.campaign = await addLongCampaign(BASE_URL, APP_SECRET);
  // A gateway payment held for review (another amount paid than the order's), on the payments screen.
  await createHeldPayment(BASE_URL, APP_SECRET, GATEWAY_PORT, data.latin);

  // Sign in through the screens once; later languages reuse the session and enter the MPIN.
  const context = await browser.newContext({ viewport: { width: 360, height: HEIGHT } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel(en('auth.login.mobileLabel')).fill(RETAILER);
  await page.getByRole('button', { name: en('auth.login.sendOtp') }).click();
  await expect(page.getByRole('heading', { name: en('auth.otp.title') })).toBeVisible();
  pendingOtp = await page.evaluate(() => sessionStorage.getItem('kisht.pendingOtp') ?? '');
  await page.getByLabel(en('auth.otp.label')).fill(await latestOtp(page.request, `+91${RETAILER}`));
  await page.getByRole('button', { name: en('auth.otp.verify') }).click();
  // Set the MPIN, enter it, or neither when this retailer entered it moments ago (the anti-theft journey signs in
  // as this retailer before this test).
  await passMpin(page, MPIN);
  // The payment QR screen shows the shop's QR, UPI ID and a long payee name.
  await uploadPaymentQr(page);
  signedIn = await context.storageState();
  await context.close();
});

async function languageContext(browser: Browser, lng: Lng, storageState?: typeof signedIn): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: HEIGHT }, ...(storageState ? { storageState } : {}) });
  await context.addCookies([{ name: 'i18next', value: lng, url: BASE_URL }]);
  return context;
}

// A step that cannot find its control fails within seconds instead of waiting for the whole test's time.
test.use({ actionTimeout: 15_000 });

/** All ten languages in one test (one set of data, no worker restart after a failure); LAYOUT_LANGS=en,tm narrows it. */
const chosen = (process.env.LAYOUT_LANGS?.split(',') ?? LANGUAGES).filter((l): l is Lng => (LANGUAGES as readonly string[]).includes(l));

/** How many languages are checked at once (each in its own browser context): much of a screen's time is waiting. */
const PARALLEL = Math.max(1, Number(process.env.LAYOUT_PARALLEL ?? 4));

/** Runs `work` over `items`, `n` at a time. */
async function inTurns<T>(items: readonly T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: Math.min(n, queue.length) }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  }));
}

let turn: Promise<unknown> = Promise.resolve();
/** Runs `work` after every earlier call's work has ended. */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = turn.then(work);
  turn = run.catch(() => undefined);
  return run;
}

/** Every screen in one language, signed out and in, and the states over screens (drawers, dialogs, a receipt). */
async function checkLanguage(browser: Browser, lng: Lng): Promise<Problem[]> {
  const screens = signedInScreens(data);
  expect(screens.length).toBeGreaterThan(20);

  // Signed out: the login and OTP screens (the OTP screen shows the request made in beforeAll).
  const outside = await languageContext(browser, lng);
  const guest = await outside.newPage();
  const guestLoads = trackRequests(guest);
  const guestCheck = new Checker(guest, lng, guestLoads);
  await guest.goto('/login');
  await expect(guest.locator('html')).toHaveAttribute('lang', /./);
  if (await settle(guest, guestLoads)) await guestCheck.check('login');
  else guestCheck.notReady('login');
  await guest.evaluate((pending) => sessionStorage.setItem('kisht.pendingOtp', pending), pendingOtp);
  await guest.goto('/otp');
  await expect(guest.getByRole('heading', { name: text(lng, 'auth.otp.title') })).toBeVisible();
  if (await settle(guest, guestLoads)) await guestCheck.check('otp');
  else guestCheck.notReady('otp');
  await outside.close();

  // Signed in: the MPIN, then every screen.
  const context = await languageContext(browser, lng, signedIn);
  const page = await context.newPage();
  const loads = trackRequests(page);
  const checker = new Checker(page, lng, loads);
  await page.goto('/m-pin');
  await expect(page.getByRole('heading', { name: text(lng, 'auth.mpin.enterTitle') })).toBeVisible();
  if (await settle(page, loads)) await checker.check('m_pin');
  else checker.notReady('m_pin');
  await page.getByLabel(text(lng, 'auth.mpin.label'), { exact: true }).fill(MPIN);
  await page.getByRole('button', { name: text(lng, 'auth.mpin.verify') }).click();
  await expect(page.getByRole('button', { name: text(lng, 'nav.openMenu') })).toBeVisible();

  for (const { name, path } of screens) {
    await navigateInApp(page, path);
    const label = `${name} ${path}`;
    if (await settle(page, loads)) await checker.check(label);
    else checker.notReady(label);
  }

  // States over a screen: the menu drawer, and a receipt with its toast after paying an instalment.
  await navigateInApp(page, ROUTES.dashboard);
  await settle(page, loads);
  await page.getByRole('button', { name: text(lng, 'nav.openMenu') }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await settle(page, loads);
  await checker.check('menu drawer');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // The notification drawer from the app bar's bell (its name carries the unread count: matched by its start).
  await page.getByRole('banner').getByRole('button', { name: new RegExp(`^${say(lng, 'notifications.title')}`) }).click();
  await expect(page.getByRole('dialog', { name: say(lng, 'notifications.title') })).toBeVisible();
  await settle(page, loads);
  await checker.check('notifications drawer');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Anti-hacking: a plan sold to the Tamil 60-character name (its code dialog), then the code drawer and the
  // cancel-plan question over the list of plans sold. Closing the dialog replaces the form with that list.
  await navigateInApp(page, `/antihacking?app_type=8&plan_id=${data.antihackingPlan.id}&product_id=${data.antihackingPlan.productId}`);
  await settle(page, loads);
  await page.getByLabel(say(lng, 'addCustomer.firstName')).fill(TAMIL_NAME.first);
  await page.getByLabel(say(lng, 'addCustomer.lastName')).fill(TAMIL_NAME.last);
  await page.getByLabel(say(lng, 'addCustomer.mobile'), { exact: true }).fill(`98111${String(LANGUAGES.indexOf(lng)).padStart(5, '0')}`);
  await page.getByRole('button', { name: say(lng, 'antihacking.submit') }).click();
  const sold = page.getByRole('dialog', { name: say(lng, 'antihacking.sold.title') });
  await expect(sold).toBeVisible();
  await settle(page, loads);
  await checker.check('antihacking: code dialog');
  await sold.getByRole('button', { name: say(lng, 'common.close') }).click();
  await expect(page).toHaveURL(/\/customers\?tab=antihacking$/);
  await settle(page, loads);
  const newest = page.locator('.sale-row').first();
  await newest.getByRole('button', { name: say(lng, 'antihacking.code.view') }).click();
  await expect(page.getByRole('dialog', { name: say(lng, 'antihacking.code.title') })).toBeVisible();
  await settle(page, loads);
  await checker.check('antihacking: code drawer');
  await page.keyboard.press('Escape');
  await newest.getByRole('button', { name: say(lng, 'antihacking.revoke.button') }).click();
  await expect(page.getByRole('dialog', { name: say(lng, 'antihacking.revoke.title') })).toBeVisible();
  await settle(page, loads);
  await checker.check('antihacking: cancel plan');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Extended warranty: the sale form for the Tamil customer with the insurance plan's rules under the dropdown;
  // over a sale in cover, the raise-claim dialog with its required fields marked, the cancel question, and the
  // certificate image offered to download (this browser has no share sheet).
  const warranty = data.warranty!;
  await navigateInApp(page, `/extended-warranty?customer_id=${data.tamil}`);
  await settle(page, loads);
  await page.getByLabel(say(lng, 'warranty.plan'), { exact: true }).selectOption(String(warranty.insurancePlan));
  await settle(page, loads);
  await checker.check('extended_warranty: plan rules');
  await navigateInApp(page, `/extended-warranty?sale_id=${warranty.inCover}`);
  await settle(page, loads);
  await page.getByRole('button', { name: say(lng, 'warranty.claim.raise') }).click();
  const claim = page.getByRole('dialog', { name: say(lng, 'warranty.claim.title') });
  await claim.getByRole('button', { name: say(lng, 'warranty.claim.submit') }).click();
  await expect(claim.getByText(say(lng, 'warranty.claim.photosRequired'))).toBeVisible();
  await settle(page, loads);
  await checker.check('extended_warranty: raise claim');
  await page.keyboard.press('Escape');
  await expect(claim).toBeHidden();
  await page.getByRole('button', { name: say(lng, 'warranty.revoke.button') }).click();
  await expect(page.getByRole('dialog', { name: say(lng, 'warranty.revoke.title') })).toBeVisible();
  await settle(page, loads);
  await checker.check('extended_warranty: cancel plan');
  await page.keyboard.press('Escape');
  await page.evaluate(() => Object.defineProperty(navigator, 'share', { configurable: true, value: undefined }));
  await page.getByRole('button', { name: say(lng, 'warranty.cert.share') }).click();
  await expect(page.getByRole('dialog', { name: say(lng, 'warranty.cert.saveTitle') })).toBeVisible();
  await settle(page, loads);
  await checker.check('extended_warranty: save certificate image');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Offers: the form with the long Tamil title and message and a long link (the phone's preview follows them),
  // customers to pick from and a time to choose, sent with nobody picked so the error shows.
  await navigateInApp(page, ROUTES.send_advertisement);
  await settle(page, loads);
  await page.getByLabel(say(lng, 'ads.form.title'), { exact: true }).fill(TAMIL_OFFER.title);
  await page.getByLabel(say(lng, 'ads.form.text'), { exact: true }).fill(TAMIL_OFFER.text);
  await page.getByLabel(say(lng, 'common.optionalLabel', { label: say(lng, 'ads.form.link') })).fill(TAMIL_OFFER.link);
  await page.getByRole('radio', { name: say(lng, 'ads.audience.picked') }).check();
  await page.getByRole('radio', { name: say(lng, 'ads.when.later') }).check();
  await page.getByRole('button', { name: say(lng, 'ads.form.schedule'), exact: true }).click();
  await expect(page.getByText(say(lng, 'ads.form.errors.pickSomeone'))).toBeVisible();
  await settle(page, loads);
  await checker.check('send_advertisement: a long Tamil offer to pick customers for');

  // Enrolment on a loan product: the Tamil 60-character name, a price in the tens of lakhs, the no-cost product's
  // schedule with its Key Fact Statement figures (APR, total cost, GST, discount) under the loan step.
  await navigateInApp(page, ROUTES.add_customer);
  await settle(page, loads);
  await page.getByLabel(say(lng, 'addCustomer.firstName')).fill(TAMIL_NAME.first);
  await page.getByLabel(say(lng, 'addCustomer.lastName')).fill(TAMIL_NAME.last);
  await page.getByLabel(say(lng, 'addCustomer.mobile'), { exact: true }).fill('9811122299');
  await page.getByRole('button', { name: say(lng, 'common.next') }).click();
  await page.getByLabel(say(lng, 'device.brand')).selectOption({ label: 'Samsung' });
  await page.getByLabel(say(lng, 'device.model')).fill('Galaxy S25 Ultra Enterprise Edition 512GB Titanium');
  await page.getByLabel(say(lng, 'device.imei1')).fill(randomImei());
  await page.getByLabel(say(lng, 'device.provisioning')).selectOption('0');
  await page.getByRole('button', { name: say(lng, 'common.next') }).click();
  await page.getByLabel(say(lng, 'addCustomer.product'), { exact: true }).selectOption({ index: 1 });
  await page.getByLabel(say(lng, 'addCustomer.loanProduct')).selectOption({ label: 'No-cost EMI (GST on interest)' });
  await page.getByLabel(say(lng, 'loan.price'), { exact: true }).fill('9876543.21');
  await page.getByLabel(say(lng, 'loan.downPayment')).fill('123456.78');
  await page.getByLabel(say(lng, 'addCustomer.ratePerYear')).fill('18.5');
  await page.getByLabel(say(lng, 'addCustomer.tenureMonths')).fill('60');
  await expect(page.getByText(say(lng, 'addCustomer.preview.apr'), { exact: true })).toBeVisible();
  await settle(page, loads);
  await checker.check('add_customer: loan step on a no-cost loan product');

  // The EMI plan's ledger dialogs over the Tamil customer's large no-cost loan: waiving part of the first
  // instalment's penalty, and closing the loan early (today's quote with GST, penalties and the saving).
  await navigateInApp(page, `/emi-details/${data.tamil}`);
  await settle(page, loads);
  await page.getByRole('button', { name: `${say(lng, 'ledger.waive.button')} (${say(lng, 'emi.table.number')} 1)` }).click();
  const waive = page.getByRole('dialog', { name: say(lng, 'ledger.waive.title', { number: '1' }) });
  await expect(waive).toBeVisible();
  await settle(page, loads);
  await checker.check('emi_details: waive penalty');
  await page.keyboard.press('Escape');
  await expect(waive).toBeHidden();
  await page.getByRole('button', { name: say(lng, 'ledger.foreclose.button') }).click();
  const foreclose = page.getByRole('dialog', { name: say(lng, 'ledger.foreclose.title') });
  await expect(foreclose.getByText(say(lng, 'ledger.foreclose.total'), { exact: true })).toBeVisible();
  await settle(page, loads);
  await checker.check('emi_details: close loan early');
  await page.keyboard.press('Escape');
  await expect(foreclose).toBeHidden();

  // One language pays at a time: two at once would pick the same next instalment.
  await oneAtATime(async () => {
    await navigateInApp(page, `/view-emi-details/${data.latin}`);
    await settle(page, loads);
    await page.locator('table input[type=checkbox]:not(:disabled)').nth(1).check();
    await page.getByRole('button', { name: text(lng, 'emi.paySelected') }).click();
    await page.getByLabel(text(lng, 'emi.pay.method')).selectOption('upi');
    await page.getByLabel(text(lng, 'emi.pay.reference')).fill(`UTR${lng.toUpperCase()}778899001122`);
    await page.getByRole('button', { name: text(lng, 'emi.pay.confirm') }).click();
    // The toast first: it shows for 3.5 s, and with other languages running the receipt can take longer to load.
    await expect(page.locator('.toast')).toBeVisible();
    await expect(page.getByRole('heading', { name: text(lng, 'receipt.title'), exact: true })).toBeVisible();
  });
  await settle(page, loads);
  await checker.check('receipt with toast');

  await context.close();
  return [...guestCheck.problems, ...checker.problems];
}

/**
 * The payment screens with the organisation's payment gateway on: orders and buying keys (with a price check), and
 * Collect by UPI on customer details. The switch is read at load, so the console loads again (MPIN).
 */
async function checkGatewayScreens(browser: Browser, lng: Lng): Promise<Problem[]> {
  const context = await languageContext(browser, lng, signedIn);
  const page = await context.newPage();
  const loads = trackRequests(page);
  const checker = new Checker(page, lng, loads);
  await page.goto(ROUTES.payment_gateway);
  await page.getByLabel(text(lng, 'auth.mpin.label'), { exact: true }).fill(MPIN);
  await page.getByRole('button', { name: text(lng, 'auth.mpin.verify') }).click();
  await expect(page.getByRole('heading', { name: text(lng, 'gateway.buy.title') })).toBeVisible();
  await expect(page.getByRole('heading', { name: text(lng, 'gateway.held.title') })).toBeVisible();
  if (await settle(page, loads)) await checker.check('payment_gateway with the gateway on');
  else checker.notReady('payment_gateway with the gateway on');
  await page.getByLabel(text(lng, 'gateway.buy.quantity')).fill('10');
  await page.getByRole('button', { name: text(lng, 'gateway.buy.validate') }).click();
  await expect(page.getByRole('status').first()).toBeVisible();
  await settle(page, loads);
  await checker.check('payment_gateway: price checked');
  await navigateInApp(page, `/customer-details/${data.tamil}`);
  await expect(page.getByRole('heading', { name: text(lng, 'gateway.collect.title') })).toBeVisible();
  if (await settle(page, loads)) await checker.check('customer_details with Collect by UPI');
  else checker.notReady('customer_details with Collect by UPI');
  await context.close();
  return checker.problems;
}

test(`every screen fits a 320 and 360 px phone in ${chosen.join(' ')}`, async ({ browser }) => {
  test.setTimeout(chosen.length * 120_000);
  const found = new Map<Lng, Problem[]>(chosen.map((lng) => [lng, []]));
  await inTurns(chosen, PARALLEL, async (lng) => {
    found.get(lng)!.push(...(await checkLanguage(browser, lng)));
  });
  await setPaymentGateway(BASE_URL, APP_SECRET, true);
  try {
    await inTurns(chosen, PARALLEL, async (lng) => {
      found.get(lng)!.push(...(await checkGatewayScreens(browser, lng)));
    });
  } finally {
    await setPaymentGateway(BASE_URL, APP_SECRET, false);
  }
  for (const [lng, problems] of found) {
    allProblems.push(...problems);
    const lines = problems.map((p) => `${p.lng} ${p.width}px ${p.screen}: ${p.kind} ${p.detail}`);
    expect.soft(lines, `layout problems in ${lng}`).toEqual([]);
  }
});

test.afterAll(() => {
  const counts: Record<string, number> = {};
  for (const p of allProblems) counts[p.kind] = (counts[p.kind] ?? 0) + 1;
  console.log(`layout: ${allProblems.length} problems ${JSON.stringify(counts)}`);
});
